/* The scripted μT-Kernel scenario (see utk_scenario.h):
 *   sensor (pri 5): waits on adc_sem, works 150, sends a message to mbox
 *   ctrl   (pri 6): waits on flag bit 0 of "events" (set by cyclic handler "cyc3" every 3 ms), works 80
 *   logger (pri 8): receives from mbox with a 5 ms timeout, works 250 per message
 *   "adc" interrupt (5): signals adc_sem, schedules the next one; "systick" (0) is the kernel timer. */
#include <string.h>
#include "kernel/utk/utk_adapter.h"
#include "utk_scenario.h"

#define FPC(f) ((FP)(void (*)(void))(f))

static const utk_scenario *g_scn;
static ID g_sem, g_flg, g_mbx, g_cyc;
static int g_adc_count;
static volatile int g_logged; /* messages the logger received */
static T_MSG g_msgs[4];

static void adc_isr(UINT dintno)
{
    tk_sig_sem(g_sem, 1);
    if (++g_adc_count < g_scn->adc_rounds) utk_sim_schedule_int(dintno, utk_now() + g_scn->adc_period);
}

static void cyc_handler(void *exinf)
{
    (void)exinf;
    tk_set_flg(g_flg, 0x1);
}

static void sensor(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    for (unsigned i = 0;; i++) {
        tk_wai_sem(g_sem, 1, TMO_FEVR);
        utk_sim_work(150);
        tk_snd_mbx(g_mbx, &g_msgs[i % 4]);
    }
}

static void ctrl(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    for (;;) {
        UINT ptn = 0;
        tk_wai_flg(g_flg, 0x1, TWF_ORW | TWF_CLR, &ptn, TMO_FEVR);
        utk_sim_work(80);
    }
}

static void logger(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    for (;;) {
        T_MSG *m = NULL;
        if (tk_rcv_mbx(g_mbx, &m, 5) == E_OK) {
            utk_sim_work(250);
            g_logged++;
        }
    }
}

static ID make_task(const char *name, void (*fn)(INT, void *), PRI pri)
{
    T_CTSK c;
    memset(&c, 0, sizeof c);
    c.tskatr = TA_HLNG | TA_DSNAME;
    c.task = FPC(fn);
    c.itskpri = pri;
    for (size_t i = 0; i < sizeof c.dsname && name[i]; i++) c.dsname[i] = (UB)name[i];
    return tk_cre_tsk(&c);
}

void utk_scenario_main(INT stacd, void *exinf)
{
    (void)stacd;
    g_scn = exinf;
    g_adc_count = 0;
    g_logged = 0;
    evt_utk_attach(EVT_UTK_HOOK_ALL);
    evt_utk_name_interrupt(0, "systick");
    evt_utk_name_interrupt(UTK_SCN_ADC_INT, "adc");

    T_CSEM cs;
    memset(&cs, 0, sizeof cs);
    cs.sematr = TA_TFIFO | TA_DSNAME;
    cs.maxsem = 4;
    memcpy(cs.dsname, "adc_sem", 7);
    g_sem = tk_cre_sem(&cs);
    T_CFLG cf;
    memset(&cf, 0, sizeof cf);
    cf.flgatr = TA_WMUL | TA_DSNAME;
    memcpy(cf.dsname, "events", 6);
    g_flg = tk_cre_flg(&cf);
    T_CMBX cm;
    memset(&cm, 0, sizeof cm);
    cm.mbxatr = TA_MFIFO | TA_DSNAME;
    memcpy(cm.dsname, "mbox", 4);
    g_mbx = tk_cre_mbx(&cm);
    T_CCYC cc;
    memset(&cc, 0, sizeof cc);
    cc.cycatr = TA_HLNG | TA_STA | TA_DSNAME;
    cc.cychdr = FPC(cyc_handler);
    cc.cyctim = 3;
    memcpy(cc.dsname, "cyc3", 4);
    g_cyc = tk_cre_cyc(&cc);
    T_DINT di = {TA_HLNG, FPC(adc_isr)};
    tk_def_int(UTK_SCN_ADC_INT, &di);
    utk_sim_schedule_int(UTK_SCN_ADC_INT, g_scn->adc_first);

    tk_sta_tsk(make_task("sensor", sensor, 5), 0);
    tk_sta_tsk(make_task("ctrl", ctrl, 6), 0);
    tk_sta_tsk(make_task("logger", logger, 8), 0);
    tk_dly_tsk(g_scn->run_ms);
    /* On the real-time clock a loaded host may not have finished every ADC round yet: wait for the
     * logger's last message (bounded, 2 s). On the virtual clock it always has: nothing changes. */
    for (int k = 0; k < 400 && g_logged < g_scn->adc_rounds; k++) tk_dly_tsk(5);
    tk_stp_cyc(g_cyc);
    utk_shutdown();
}

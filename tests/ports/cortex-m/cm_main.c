/* Cortex-M QEMU test program: checks the port primitives on the (emulated) core -- PRIMASK
 * critical-section nesting, IPSR in thread mode and in a real exception, the DWT switch-on --
 * then records the fixed TXTB script (cm_script.h) into a static buffer and prints it as hex
 * between marker lines over semihosting (run_cortexm.sh decodes it and compares it with the host
 * twin, cm_twin_host.c), then records a few events with the port's default context and clock and
 * checks those slots itself. cm_main() returns the number of failed checks (QEMU exit status). */
#include <stdint.h>

#include "evtrace/port.h"
#include "cm_semihost.h"

#define CM_SET_TASK(addr) (evt_cm_current_task = (void *)(uintptr_t)(addr))
#define CM_GET_TASK() ((uint32_t)evt_port_context_id())
#include "cm_script.h"

#define CM_SCB_ICSR          (*(volatile uint32_t *)0xE000ED04u)
#define CM_SCB_ICSR_PENDSVSET (1u << 28)

static volatile int cm_isr_seen = -1;      /* evt_port_in_isr() as seen inside PendSV */
static volatile uint32_t cm_isr_primask;   /* PRIMASK inside the handler's critical section */
static void (*volatile cm_isr_fn)(void);   /* script body the next PendSV runs, if any */
static uint8_t cm_trace_buf[CM_BUF_SIZE];  /* the trace buffer (zeroed .bss) */
static uint8_t cm_default_buf[48u + 48u + 32u * 8u]; /* buffer of the port-default run */

static uint32_t cm_primask(void)
{
    uint32_t v;
    __asm__ volatile("mrs %0, primask" : "=r"(v));
    return v;
}

static int cm_check(int ok, const char *what)
{
    cm_sh_puts(ok ? "ok   " : "FAIL ");
    cm_sh_puts(what);
    cm_sh_puts("\n");
    return ok ? 0 : 1;
}

void cm_pendsv_handler(void);
void cm_pendsv_handler(void)
{
    if (cm_isr_fn) {
        cm_isr_fn();
        cm_isr_fn = 0;
        return;
    }
    evt_port_crit_t st = evt_port_crit_enter();
    cm_isr_seen = evt_port_in_isr();
    cm_isr_primask = cm_primask();
    evt_port_crit_exit(st);
}

static void cm_raise_pendsv(void)
{
    CM_SCB_ICSR = CM_SCB_ICSR_PENDSVSET;
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

/* The script's interrupt: a real PendSV exception, so in_isr() comes from IPSR. */
static void cm_platform_isr(void (*fn)(void))
{
    cm_isr_fn = fn;
    cm_raise_pendsv();
}

static int cm_port_checks(void)
{
    int fails = 0;
    int dwt = evt_cm_port_init(25000000u);
    fails += cm_check(dwt == 0, "evt_cm_port_init: DWT cycle counter present and enabled");
    fails += cm_check(evt_port_timestamp_hz() == 25000000u && evt_port_timestamp_bits() == 32u,
                      "timestamp frequency and width");
    uint32_t t0 = (uint32_t)evt_port_timestamp();
    for (volatile int i = 0; i < 1000; i++) {
    }
    uint32_t t1 = (uint32_t)evt_port_timestamp();
    cm_sh_puts("info DWT_CYCCNT before/after a 1000-iteration loop: ");
    cm_sh_put_hex32(t0);
    cm_sh_puts(" ");
    cm_sh_put_hex32(t1);
    cm_sh_puts(", DEMCR ");
    cm_sh_put_hex32(EVT_CM_DEMCR);
    cm_sh_puts(" (QEMU 7.2 models neither the DWT cycle counter nor DEMCR: both read 0)\n");

    fails += cm_check(cm_primask() == 0u, "PRIMASK clear in thread mode at start");
    evt_port_crit_t outer = evt_port_crit_enter();
    fails += cm_check(outer == 0u && cm_primask() == 1u, "crit_enter saves PRIMASK=0 and masks");
    evt_port_crit_t inner = evt_port_crit_enter();
    fails += cm_check(inner == 1u && cm_primask() == 1u, "nested crit_enter saves PRIMASK=1");
    cm_raise_pendsv(); /* pending, must not run while masked */
    fails += cm_check(cm_isr_seen == -1, "PendSV held off inside the critical section");
    evt_port_crit_exit(inner);
    fails += cm_check(cm_primask() == 1u && cm_isr_seen == -1, "inner crit_exit keeps interrupts masked");
    evt_port_crit_exit(outer);
    fails += cm_check(cm_primask() == 0u, "outer crit_exit restores PRIMASK=0");
    fails += cm_check(cm_isr_seen == 1, "PendSV ran after the critical section, in_isr()=1 inside");
    fails += cm_check(cm_isr_primask == 1u, "crit_enter masks inside the handler too");
    fails += cm_check(evt_port_in_isr() == 0, "in_isr()=0 in thread mode");
    fails += cm_check(evt_port_cpu() == 0u, "cpu 0");
    evt_cm_current_task = (void *)(uintptr_t)0x20001230u;
    fails += cm_check(evt_port_context_id() == 0x20001230u, "context id = evt_cm_current_task");
    evt_cm_current_task = 0;
    return fails;
}

static uint32_t cm_ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void cm_default_isr_body(void) { (void)evt_tx_trace_user_event_insert(4101u, 0, 0, 0, 0); }

/* The recorder with the port defaults (no context callback, no time source): contexts come from
 * evt_cm_current_task and IPSR, timestamps from DWT_CYCCNT. Checked here, slot by slot. */
static int cm_default_context_checks(void)
{
    int fails = 0;
    const uint8_t *slot = cm_default_buf + 48u + 48u; /* header, 1 registry entry */
    evt_cm_current_task = 0;
    fails += cm_check(evt_tx_trace_enable(cm_default_buf, sizeof cm_default_buf, 1u) == EVT_TX_SUCCESS,
                      "default run: enable");
    evt_cm_current_task = (void *)(uintptr_t)0x20000100u;
    (void)evt_tx_trace_user_event_insert(4100u, 1u, 0, 0, 0);
    cm_platform_isr(cm_default_isr_body);
    evt_cm_current_task = 0;
    (void)evt_tx_trace_disable();
    fails += cm_check(cm_ld32(slot) == TXTB_CTX_INIT && cm_ld32(slot + 4) == 0u && cm_ld32(slot + 8) == 6u,
                      "default run: RUNNING with no current task is initialisation context");
    slot += 64u;
    fails += cm_check(cm_ld32(slot) == 0x20000100u && cm_ld32(slot + 4) == TXTB_PRIO_CURRENT_BIT &&
                      cm_ld32(slot + 8) == 4100u, "default run: thread context = evt_cm_current_task");
    slot += 32u;
    fails += cm_check(cm_ld32(slot) == TXTB_CTX_ISR && cm_ld32(slot + 8) == 4101u,
                      "default run: PendSV records ISR context (IPSR != 0)");
    fails += cm_check(cm_ld32(slot + 32u) == 0u, "default run: nothing else written");
    return fails;
}

int cm_main(void);
int cm_main(void)
{
    int fails = cm_port_checks();
    int rc = cm_script_run(cm_trace_buf);
    fails += cm_check(rc == 0, "TXTB script: API results, one buffer-full notification, 21 clock reads");
    fails += cm_check(cm_isr_fn == 0, "script interrupt ran as a PendSV exception");
    cm_sh_puts("EVT-TXTB-BEGIN\n");
    cm_sh_put_hexdump(cm_trace_buf, CM_BUF_SIZE);
    cm_sh_puts("EVT-TXTB-END\n");
    fails += cm_default_context_checks();
    cm_sh_puts(fails ? "cortex-m harness: FAILED\n" : "cortex-m harness: all checks passed\n");
    return fails;
}

/* The RKH stream of the example's stream builds (app_trace_rkh.h): the generic hooks write RKH user
 * records (backend rkh, evtrace/hooks_backends.h) and the application its own (app.sample); the
 * recorder's sink gets every record as soon as it is complete, so the host decodes it as it
 * arrives. RKH framing: a flag byte between records to resynchronise after damage, a checksum and
 * a sequence number per record, so the host reports a corrupted or lost record instead of
 * misreading the rest. */
#include "app_trace_rkh.h"

#include "app_trace.h"
#include "board.h"
#include "evtrace/hooks.h"
#include "formats/rkh/rkh_defs.h"
#include "evtrace/hooks_backends.h"

#define APP_SAMPLE_UEVT 16u /* user event number of app.sample (the hooks use 0..9) */

/* RKH user-field type UI32, from the format's table (rkh_defs.h). */
enum {
#define APP_UF_(t, name, k, sg) APP_UF_##name = t,
    RKH_USER_FIELD_TABLE(APP_UF_)
#undef APP_UF_
};

static evt_rkh_recorder g_rec;
static uint8_t g_ring[EVT_CFG_RKH_RING_SIZE];

void app_trace_rkh_start(evt_rkh_sink_fn sink, void *user)
{
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    /* RKH's configuration record has 16 bits for the timestamp rate: a faster clock is written
     * as 0 (unknown) rather than truncated to a wrong rate. */
    evt_rkh_init(&g_rec, &cfg, g_ring, sizeof g_ring, board_timestamp,
                 EVT_CFG_TIMESTAMP_HZ <= 0xFFFFu ? EVT_CFG_TIMESTAMP_HZ : 0u);
    evt_rkh_set_sink(&g_rec, sink, user);
    evt_rkh_hooks_attach(&g_rec);
    evt_rkh_filter_off_event(&g_rec, RKH_TE_USER + APP_SAMPLE_UEVT);
    evt_rkh_sym_tusr(&g_rec, APP_SAMPLE_UEVT, "app.sample");
    EVT_HOOK_KERNEL_INFO(EVT_HOOK_KERNEL_GENERIC, 0u);
}

void app_trace_sample(uint32_t task, uint32_t seq, uint32_t value)
{
    if (!evt_rkh_begin(&g_rec, RKH_TE_USER + APP_SAMPLE_UEVT)) return;
    evt_rkh_usr_int(&g_rec, APP_UF_UI32, 0, task);
    evt_rkh_usr_int(&g_rec, APP_UF_UI32, 0, seq);
    evt_rkh_usr_int(&g_rec, APP_UF_UI32, 0, value);
    evt_rkh_end(&g_rec);
}

void app_trace_rkh_stop(void)
{
    evt_rkh_flush(&g_rec);
    evt_rkh_hooks_attach(0);
}

uint32_t app_trace_rkh_lost(void)
{
    evt_rec_stats s;
    evt_rkh_get_stats(&g_rec, &s);
    return (uint32_t)(s.dropped + s.overwritten + s.pending);
}

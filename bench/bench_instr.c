/* Instruction counts per record, load-independent (the machine is shared; wall-clock ratios are
 * noisy): each subject's loop runs `N` records in its own function, which bench/instr.sh runs
 * under `valgrind --tool=callgrind --toggle-collect=<loop>` and divides by N. Run directly (as
 * `make bench` does) it runs every loop once and says how to get the counts.
 *
 *   bench_instr [SUBJECT]   SUBJECT: base txtb rkh-stream rkh-flight etw etw-owned etw-file utk utk-filtered
 *
 * Subjects: the bench baseline (rdtsc + 32-byte store); a TXTB user event (port context and clock);
 * an RKH 2-argument record (seq + ts32 + checksum) streamed to a sink and in a full, overwriting
 * flight ring; an ETW TraceEvent with 2 MOF fields; a μT-Kernel svc enter+leave pair recorded
 * and filtered. The loops are the ones bench_txtb/rkh/etw/hooks time. */
#include <stdio.h>
#include <string.h>
#include "evtrace/etw.h"
#include "evtrace/hooks.h"
#include "evtrace/port.h"
#include "evtrace/rkh.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_hooks.h"
#include "kernel/utk/utk_adapter.h"

#define N 100000u /* records per loop (bench/instr.sh divides by it) */
#define NOINLINE __attribute__((noinline))

static volatile uint32_t g_ring[1024][8];
NOINLINE void instr_loop_base(void);
NOINLINE void instr_loop_base(void)
{
    for (uint64_t i = 0; i < N; i++) {
        uint32_t t = (uint32_t)evt_port_timestamp();
        volatile uint32_t *s = g_ring[i & 1023];
        s[0] = 1; s[1] = 2; s[2] = (uint32_t)i; s[3] = t; s[4] = 5; s[5] = 6; s[6] = 7; s[7] = 8;
    }
}

NOINLINE void instr_loop_txtb(void);
NOINLINE void instr_loop_txtb(void)
{
    for (uint64_t i = 0; i < N; i++) (void)evt_tx_trace_user_event_insert(4096u, (uint32_t)i, 2u, 3u, 4u);
}

static _Alignas(128) evt_rkh_recorder g_rkh;
static _Alignas(64) uint8_t g_rkh_ring[4096];
static uint32_t ts32(void) { return (uint32_t)evt_port_timestamp(); }
static void rkh_sink(void *user, const uint8_t *p, uint32_t n) { (void)user; (void)p; (void)n; }
NOINLINE void instr_loop_rkh(void);
NOINLINE void instr_loop_rkh(void)
{
    for (uint64_t i = 0; i < N; i++) {
        if (evt_rkh_begin_ao(&g_rkh, 0x63, 1)) {
            evt_rkh_sym(&g_rkh, 0x20001000u);
            evt_rkh_sym(&g_rkh, 0x20002000u + (uint32_t)(i & 0xFFu));
            evt_rkh_end(&g_rkh);
        }
    }
}

static const evt_etw_guid k_guid = {0x9b79ee91u, 0xb5fd, 0x41c0, {0xa2, 0x43, 0x42, 0x48, 0xe2, 0x66, 0xe9, 0xd0}};
static evt_etw_provider g_prov;
static evt_etw_session g_sess;
static int etw_sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user; (void)off; (void)p; (void)n;
    return 0;
}
NOINLINE void instr_loop_etw(void);
NOINLINE void instr_loop_etw(void)
{
    for (uint64_t i = 0; i < N; i++) {
        uint32_t a = (uint32_t)i;
        uint64_t b = i * 3;
        evt_etw_mof_field mof[2] = {{&a, 4, 0}, {&b, 8, 0}};
        evt_etw_trace_header h;
        memset(&h, 0, sizeof h);
        h.size = 48 + 2 * 16;
        h.type = 10;
        h.level = 4;
        h.guid = k_guid;
        h.flags = ETW_WNODE_FLAG_TRACED_GUID | ETW_WNODE_FLAG_USE_MOF_PTR;
        evt_etw_write(&g_prov, 0, &h, mof);
    }
}

NOINLINE void instr_loop_utk(void);
NOINLINE void instr_loop_utk(void)
{
    for (uint64_t i = 0; i < N; i++) {
        TD_CALINF ci = {0, 0};
        void *x = evt_utk_svc_enter(UTK_TFN_tk_wai_sem, &ci, (uintptr_t)1, (uintptr_t)1, (uintptr_t)i);
        evt_utk_svc_leave(UTK_TFN_tk_wai_sem, E_OK, x);
    }
}

static uint8_t g_txbuf[48u + 16u * 48u + 1024u * 32u];
static uint8_t g_hookbuf[1u << 20];

static int run(const char *m)
{
    if (!strcmp(m, "base")) {
        instr_loop_base();
    } else if (!strcmp(m, "txtb")) {
        if (evt_tx_trace_enable(g_txbuf, sizeof g_txbuf, 16) != EVT_TX_SUCCESS) return 1;
        instr_loop_txtb();
        evt_tx_trace_disable();
    } else if (!strcmp(m, "rkh-stream") || !strcmp(m, "rkh-flight")) {
        evt_rkh_config c;
        evt_rkh_config_default(&c);
        evt_rkh_init(&g_rkh, &c, g_rkh_ring, sizeof g_rkh_ring, ts32, 1000000u);
        evt_rkh_filter_all(&g_rkh, 1);
        if (!strcmp(m, "rkh-stream")) evt_rkh_set_sink(&g_rkh, rkh_sink, NULL);
        instr_loop_rkh();
    } else if (!strcmp(m, "etw") || !strcmp(m, "etw-owned") || !strcmp(m, "etw-file")) {
        static uint8_t mem[4 * 64 * 1024];
        evt_etw_session_config c;
        memset(&c, 0, sizeof c);
        struct evt_etw_file *f = NULL;
        if (!strcmp(m, "etw-file")) { /* evt_etw_file_open's defaults (its CPU-time hook too), 2 buffers */
            c.buffer_size = 64 * 1024;
            c.buffers = 2;
            c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
            if (!(f = evt_etw_file_open("/dev/null", &c)) || evt_etw_session_start(&g_sess, &c, mem, sizeof mem) != 0)
                return 1;
            evt_etw_register(&g_prov, &k_guid, NULL, NULL);
            evt_etw_enable(&g_sess, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_INFORMATION, 0, 0);
            instr_loop_etw();
            evt_etw_session_stop(&g_sess);
            return evt_etw_file_close(f) == 0 ? 0 : 1;
        }
        c.buffer_size = 64 * 1024;
        c.buffers = 4;
        c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
        c.per_thread = !strcmp(m, "etw-owned") ? EVT_ETW_SLOTS_THREAD_OWNED : EVT_ETW_SLOTS_PER_CPU;
        c.write = etw_sink;
        c.thread_id = evt_etw_posix_thread_id;
        c.process_id = evt_etw_posix_process_id;
        c.filetime = evt_etw_posix_filetime;
        if (evt_etw_session_start(&g_sess, &c, mem, sizeof mem) != 0) return 1;
        evt_etw_register(&g_prov, &k_guid, NULL, NULL);
        evt_etw_enable(&g_sess, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_INFORMATION, 0, 0);
        instr_loop_etw();
        evt_etw_session_stop(&g_sess);
    } else if (!strcmp(m, "utk") || !strcmp(m, "utk-filtered")) {
        if (evt_txtb_hooks_enable(g_hookbuf, sizeof g_hookbuf, 16, NULL, EVT_HOOK_KERNEL_UTKERNEL) != EVT_TX_SUCCESS)
            return 1;
        EVT_HOOK_THREAD_IN(1, 5);
        if (!strcmp(m, "utk-filtered")) evt_tx_trace_event_filter(EVT_TX_TRACE_INTERNAL_EVENTS);
        instr_loop_utk();
        evt_tx_trace_event_unfilter(EVT_TX_TRACE_INTERNAL_EVENTS);
        evt_tx_trace_disable();
    } else {
        fprintf(stderr, "bench_instr: unknown subject '%s'\n", m);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) return run(argv[1]);
    static const char *const all[] = {"base", "txtb", "rkh-stream", "rkh-flight", "etw", "etw-owned", "etw-file", "utk", "utk-filtered"};
    for (unsigned k = 0; k < sizeof all / sizeof all[0]; k++)
        if (run(all[k]) != 0) return 1;
    printf("bench: instr: every subject ran; instructions per record: bash bench/instr.sh <build dir>\n");
    return 0;
}

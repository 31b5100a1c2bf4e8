/* The CTF export's scheduling records (src/host/exporters/ctf_sched.c) on events no sample has:
 * per-CPU buffers merged out of order, so a thread running on CPU 1 is suspended from CPU 0 at a
 * time CPU 1's stream has passed (the record is written at the stream's time and counted in
 * env.sched_clamped), and CPUs beyond the timeline's last slot (their records stay in their own
 * stream). babeltrace2 reads the result (the test fails without it, as host/export_ctf does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_meaning_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "evt_test.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_real/nowrap_m32le.trx" /* only its reader (no clock: ticks) */

/* A thread event: context id ctx (named), on cpu, at tick ts. */
static evt_event thread_ev_(evt_kind kind, const char *name, uint64_t ctx, const char *cname, uint32_t cpu,
                            uint64_t ts)
{
    evt_event ev;
    evt_event_reset(&ev);
    ev.fmt = "test";
    ev.name = name;
    ev.kind = kind;
    ev.ts = ts;
    ev.flags = EVT_HAS_CTX | EVT_HAS_CPU;
    ev.ctx = ctx;
    ev.ctx_class = EVT_CTX_THREAD;
    ev.ctx_name = cname;
    ev.cpu = cpu;
    return ev;
}

/* babeltrace2 from PATH (posix_spawn takes a path), or NULL. */
static const char *babeltrace2_(void)
{
    static char p[4096];
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n && n < sizeof p - 16) {
            snprintf(p, sizeof p, "%.*s/babeltrace2", (int)n, path);
            if (access(p, X_OK) == 0) return p;
        }
        path += n + (path[n] == ':');
    }
    return NULL;
}

static void out_of_order_cpus(void **st)
{
    (void)st;
    const char *bt = babeltrace2_();
    if (!bt) fail_msg("babeltrace2 missing (package babeltrace2)");
    char out[4096], err[256];
    snprintf(out, sizeof out, "%s/sched.ctf", evt_test_tmpdir());
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_file(SAMPLE, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    const evt_exporter_desc *x = evt_exporter_find("ctf");
    assert_non_null(x);
    void *xs = NULL;
    assert_int_equal(x->begin(out, r, &xs, err, sizeof err), EVT_OK);
    evt_event ev[5];
    ev[0] = thread_ev_(EVT_KIND_OTHER, "work", 0xA, "A", 1, 100);   /* A runs on CPU 1 */
    ev[1] = thread_ev_(EVT_KIND_OTHER, "work", 0xA, "A", 1, 300);
    ev[2] = thread_ev_(EVT_KIND_THREAD_STOP, "suspend", 0xB, "B", 0, 200); /* B on CPU 0 suspends A */
    ev[2].flags |= EVT_HAS_TARGET;
    ev[2].target = 0xA;
    tm_stop(&ev[2], EVT_HOOK_STATE_SUSPENDED);
    ev[3] = thread_ev_(EVT_KIND_OTHER, "work", 0xC, "C", 70, 400);  /* CPU 70: the timeline's last slot */
    ev[4] = thread_ev_(EVT_KIND_OTHER, "work", 0xD, "D", 70, 500);
    for (int i = 0; i < 5; i++) assert_int_equal(x->event(xs, &ev[i]), EVT_OK);
    assert_int_equal(x->end(xs, r, err, sizeof err), EVT_OK);
    evt_reader_close(r);

    char mp[4200];
    snprintf(mp, sizeof mp, "%s/metadata", out);
    size_t mlen;
    char *meta = (char *)evt_test_read_file(mp, &mlen);
    assert_non_null(strstr(meta, "\tsched_clamped = 1;\n")); /* A's switch out, 200 on a stream at 300 */
    free(meta);

    const char *argv[] = {bt, "--clock-cycles", out, NULL};
    char *so = NULL, *se = NULL;
    size_t olen;
    assert_int_equal(evt_test_runv(argv, &so, &olen, &se), 0);
    assert_string_equal(se, "");
    /* CPU 1: swapper -> A at 100, A's events, then A -> swapper (suspended: 4) written at 300;
     * CPU 70: its records in stream 70, C then D (tids 3, 4: A and B came first) */
    static const struct { unsigned long long clock; const char *text; } want[] = {
        {100, "sched_switch: { cpu_id = 1 }, { prev_comm = \"swapper\", prev_tid = 0, prev_prio = 0, "
              "prev_state = 0, next_comm = \"A\", next_tid = 1, next_prio = 0 }"},
        {300, "sched_switch: { cpu_id = 1 }, { prev_comm = \"A\", prev_tid = 1, prev_prio = 0, "
              "prev_state = 4, next_comm = \"swapper\", next_tid = 0, next_prio = 0 }"},
        {400, "sched_switch: { cpu_id = 70 }, { prev_comm = \"swapper\", prev_tid = 0, prev_prio = 0, prev_state = 0, "
              "next_comm = \"C\", next_tid = 3, next_prio = 0 }"},
        {500, "sched_switch: { cpu_id = 70 }, { prev_comm = \"C\", prev_tid = 3, prev_prio = 0, prev_state = 0, "
              "next_comm = \"D\", next_tid = 4, next_prio = 0 }"},
    };
    const char *at = so;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *hit = strstr(at, want[i].text);
        if (!hit) fail_msg("babeltrace2 output lacks, after the previous line: %s", want[i].text);
        const char *line = hit;
        while (line > so && line[-1] != '\n') line--;
        /* "[<clock, 20 digits>] (+<delta>) <text>" */
        assert_int_equal(line[0], '[');
        assert_true(strtoull(line + 1, NULL, 10) == want[i].clock);
        at = hit + strlen(want[i].text);
    }
    /* no record on a stream of its own for the timeline's slot 63 */
    assert_null(strstr(so, "cpu_id = 63 }"));
    free(so);
    free(se);
    assert_int_equal(evt_out_remove_tree(out), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(out_of_order_cpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

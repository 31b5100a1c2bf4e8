/* ETW on the POSIX port: when the recorder holds its thread's signals around a file write
 * (etw_enc.c hold_begin). A process none of whose signal handlers has recorded inside a record of
 * its own thread, and that has attached no user events, pays no hold: every write, in the
 * thread-owned and the per-CPU slot modes, runs with SIGUSR1 deliverable (before, each buffer cost
 * two rt_sigprocmask calls, 0.2x of a record's cost on the Zen 5 VM). Once a handler has, every
 * later write in both modes runs with the signals blocked, and a signal raised inside one runs
 * only after it. Two ways a handler's record finds its thread's record open each turn the holds
 * on, one per child process (the flag is process-wide and never cleared; a fork child starts from
 * the parent's, which has none): the thread-owned slot's nesting guard (the handler lands in a
 * record), the session's section (it lands in a per-CPU record). Attaching user events turns them
 * on from the first write (a child per slot mode): a storm of handler lines inside that write, which
 * before filled the user layer's stash (8,192 words) and lost the rest (counted: the first test of
 * test_user_signals_etw_mt, "lost 1" in a CI run), now waits for its end, none lost. Every
 * session's file read back adds up: events + lost == issued. */
#define EVT_CFG_USER_BACKEND etw
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "evt_etw_test.h"
#include "evt_port_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"
#include "evtrace/user.h"

#define BUF_SIZE 4096u
#define FILE_MAX (64u * BUF_SIZE)

static const evt_etw_guid k_guid = {0x5197401du, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
static evt_etw_provider g_p;
static _Alignas(8) uint8_t g_mem[4u * BUF_SIZE];
static uint8_t g_file[FILE_MAX];
static size_t g_len;
static unsigned g_writes, g_blocked;  /* cfg.write calls, and how many found SIGUSR1 blocked */
static unsigned g_writes_at, g_blocked_at; /* the two when the last session had attached user events */
static volatile sig_atomic_t g_in_write, g_raise_write, g_raise_clock, g_ran, g_ran_in_write, g_printf;
#define STORM 5000 /* signals raised inside one write: lines for six stashes (819 fit in one) */
static unsigned long g_issued, g_handler_ok;

static int record(void)
{
    uint32_t v[6] = {(uint32_t)g_issued, 1, 2, 3, 4, 5};
    evt_etw_trace_header h;
    evt_etw_test_header_flat(&h, &k_guid, sizeof v);
    g_issued++;
    return evt_etw_trace_event(&g_p, &h, v) == EVT_ETW_SUCCESS;
}

/* A handler that records into the session its thread is writing: an event, or (g_printf) a line
 * through the user layer. */
static void on_usr1(int signo)
{
    (void)signo;
    g_ran++;
    if (g_in_write) g_ran_in_write++;
    if (g_printf) {
        evt_printf("sig", "ran %d", (int)g_ran);
        g_handler_ok++; /* stashed, written at the end of the record it landed in */
    } else if (record()) {
        g_handler_ok++;
    }
}

static int logged_write(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > FILE_MAX) return -1;
    sigset_t cur;
    pthread_sigmask(SIG_BLOCK, NULL, &cur);
    g_writes++;
    if (sigismember(&cur, SIGUSR1)) g_blocked++;
    g_in_write = 1;
    if (g_raise_write) { /* inside the write (that many times): delivered now unless held */
        int k = g_raise_write;
        g_raise_write = 0;
        while (k-- > 0) raise(SIGUSR1);
    }
    g_in_write = 0;
    memcpy(g_file + off, p, n);
    if (off + n > g_len) g_len = off + n;
    return 0;
}

/* The session clock, read inside every record: raises the signal there once when armed. */
static uint64_t clock_raising(void)
{
    if (g_raise_clock) {
        g_raise_clock = 0;
        raise(SIGUSR1);
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One session in slot mode `mode` (user events attached when `user`): records until three data
 * buffers went out, the signal raised in_write times inside the first write, once inside the 10th
 * record when `in_record`; then stop and read back. 0, or the number of the check that failed. */
static int session(int mode, int in_write, int in_record, int user)
{
    evt_etw_session_config c;
    evt_etw_test_config(&c, mode, BUF_SIZE, 2u, 0u, logged_write);
    c.clock = clock_raising;
    c.clock_hz = 1000000000u;
    static evt_etw_session s;
    g_len = 0;
    g_issued = g_handler_ok = 0;
    memset(g_file, 0, sizeof g_file);
    if (evt_etw_session_start(&s, &c, g_mem, sizeof g_mem) != EVT_ETW_SUCCESS) return 1;
    evt_etw_register(&g_p, &k_guid, NULL, NULL);
    if (evt_etw_enable(&s, &g_p, ETW_CONTROL_ENABLE_PROVIDER, 0, 0, 0) != EVT_ETW_SUCCESS) return 2;
    if (user && evt_etw_user_attach(&s, ETW_LEVEL_INFORMATION) != EVT_ETW_SUCCESS) return 3;
    g_writes_at = g_writes; /* (the logfile header went out at start) */
    g_blocked_at = g_blocked;
    g_raise_write = in_write;
    unsigned long ok = 0;
    for (unsigned i = 0; g_len < 4u * BUF_SIZE; i++) {
        if (i == 10u) g_raise_clock = in_record;
        ok += (unsigned long)record();
    }
    if (g_raise_write || g_raise_clock) return 4;
    if (evt_etw_session_stop(&s) != EVT_ETW_SUCCESS) return 5;
    evt_reader *rd;
    char err[256];
    if (evt_reader_open_mem(g_file, g_len, "etw", NULL, NULL, NULL, &rd, err, sizeof err) != EVT_OK) return 6;
    evt_event ev;
    evt_status rc;
    unsigned long data = 0, lines = 0;
    while ((rc = evt_reader_next(rd, &ev)) == EVT_OK) {
        if (ev.kind != EVT_KIND_USER) continue;
        if ((ev.m.has & EVT_M_TEXT) && strncmp(ev.m.text, "ran ", 4) == 0) lines++;
        else data++;
    }
    int bad = rc != EVT_END ? 7 : rd->errors ? 8 : data + lines != ok + g_handler_ok ? 9 :
              data + lines + rd->lost != g_issued + (unsigned long)g_printf * g_handler_ok ? 10 : 0;
    evt_reader_close(rd);
    return bad;
}

/* After a handler has recorded: every write in both modes holds the signals, and one raised
 * inside a write runs after it. 0, or the check that failed (20 and up). */
static int holds_from_now_on(void)
{
    unsigned w0 = g_writes, b0 = g_blocked, in0 = (unsigned)g_ran_in_write, r0 = (unsigned)g_ran;
    int rc;
    if ((rc = session(EVT_ETW_SLOTS_THREAD_OWNED, 1, 0, 0)) != 0) return 20 + rc;
    if ((rc = session(EVT_ETW_SLOTS_PER_CPU, 1, 0, 0)) != 0) return 40 + rc;
    if (g_writes - w0 < 8u) return 60;
    if (g_blocked - b0 != g_writes - w0) return 61;
    if ((unsigned)g_ran != r0 + 2u) return 62;
    if ((unsigned)g_ran_in_write != in0) return 63;
    return 0;
}

/* A child: the handler lands inside a record once (an event), which must be refused, then the
 * holds. Exit status 0, or the check that failed. */
static int child(int mode)
{
    int rc = session(mode, 0, 1, 0);
    if (rc) return rc;
    if (g_ran != 1 || g_ran_in_write != 0) return 11;
    if (g_handler_ok != 0) return 12; /* refused: dropped, counted */
    return holds_from_now_on();
}

/* A child: user events attached before any handler recorded; the first write raises the signal
 * STORM times, each handler writes a line. Held from that first write: one handler runs, after
 * it; its line and every event back, none lost. Then the holds, in both modes. */
static int child_user(int mode)
{
    g_printf = 1;
    int rc = session(mode, STORM, 0, 1);
    if (rc) return rc;
    if (g_writes - g_writes_at < 4u) return 13;
    if (g_blocked - g_blocked_at != g_writes - g_writes_at) return 14; /* every write since held */
    if (g_ran != 1 || g_ran_in_write != 0 || g_handler_ok != 1) return 15; /* one, after it */
    g_printf = 0;
    return holds_from_now_on();
}

static void run_child(int mode, int user)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) _exit(user ? child_user(mode) : child(mode));
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_no_hold_before_a_handler_recorded(void **st)
{
    (void)st;
    evt_port_test_on_signal(SIGUSR1, on_usr1);
    assert_int_equal(session(EVT_ETW_SLOTS_THREAD_OWNED, 0, 0, 0), 0);
    assert_int_equal(session(EVT_ETW_SLOTS_PER_CPU, 0, 0, 0), 0);
    assert_true(g_writes >= 8u);
    assert_int_equal(g_blocked, 0);
    assert_int_equal(g_ran, 0);
}

/* Each from a parent in which no handler has recorded (the test above). */
static void test_hold_after_slot_guard(void **st) { (void)st; run_child(EVT_ETW_SLOTS_THREAD_OWNED, 0); }
static void test_hold_after_session_section(void **st) { (void)st; run_child(EVT_ETW_SLOTS_PER_CPU, 0); }
static void test_hold_from_user_attach_per_cpu(void **st) { (void)st; run_child(EVT_ETW_SLOTS_PER_CPU, 1); }
static void test_hold_from_user_attach_owned(void **st) { (void)st; run_child(EVT_ETW_SLOTS_THREAD_OWNED, 1); }

/* The control: the same steps in this process, a signal raised inside a write while nothing is
 * held runs there (its record is refused by the guard of the record the write is in); after it,
 * the holds. */
static void test_hold_after_a_write_was_interrupted(void **st)
{
    (void)st;
    assert_int_equal(g_blocked, 0);
    assert_int_equal(session(EVT_ETW_SLOTS_THREAD_OWNED, 1, 0, 0), 0);
    assert_int_equal(g_ran, 1);
    assert_int_equal(g_ran_in_write, 1);
    assert_int_equal(g_handler_ok, 0);
    assert_int_equal(holds_from_now_on(), 0);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_hold_before_a_handler_recorded),
        cmocka_unit_test(test_hold_after_slot_guard),
        cmocka_unit_test(test_hold_after_session_section),
        cmocka_unit_test(test_hold_from_user_attach_per_cpu),
        cmocka_unit_test(test_hold_from_user_attach_owned),
        cmocka_unit_test(test_hold_after_a_write_was_interrupted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

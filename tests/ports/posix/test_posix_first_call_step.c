/* The first call of a POSIX runtime entry point with a raw signal handler at each of its
 * instructions (x86-64 Linux): a child process single-steps the call with the trap flag, and the
 * SIGTRAP handler makes the same call at step N (then ends the stepping), for N = 1, 2, ... Before
 * the fix the one-time setup of these entry points was a pthread_once run with signals open: a
 * handler that landed inside it ran the same pthread_once, which waited for itself.
 *  - the process's first XRay record (the thread-exit key, the fork handler; test_xray_stress_mt
 *    hung like this once under load, before its first output): the setup now runs with the
 *    thread's signals blocked. The sweep ends there (a trap while SIGTRAP is blocked is fatal:
 *    the kernel forces its default action) or when the call completes in fewer steps; each child
 *    that completes must hold both records (or one and its loss);
 *  - the first evt_etw_posix_thread_id (the fork handler that clears the cached ids): now
 *    registered by the first caller without waiting; both calls must give the thread's id.
 * A child that hangs is killed by its alarm and fails the test. */
#define _GNU_SOURCE /* REG_EFL */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include "evt_step.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"


#define CHILD_DONE_EARLY 2 /* the record completed in fewer than N steps */
#define CHILD_MISMATCH 3

#if EVT_STEP_OK
static volatile unsigned g_step, g_at, g_nested;
static void (*g_action)(void); /* what the handler does at step g_at */

static void on_trap(int signo, siginfo_t *si, void *uc)
{
    (void)signo, (void)si;
    if (++g_step != g_at) return;
    ((ucontext_t *)uc)->uc_mcontext.gregs[REG_EFL] &= ~0x100; /* no more steps */
    g_action();
    g_nested = 1;
}

static const char *g_path;
static void xray_nested(void) { evt_xray_enter(2u); }
static uint32_t g_tid_nested;
static void etw_nested(void) { g_tid_nested = evt_etw_posix_thread_id(); }

/* Child: the first XRay record, stepped, then the file read back. */
static int xray_child(unsigned at)
{
    const char *path = g_path;
    g_action = xray_nested;
    evt_xray_config c = {4096u, 4u, 1};
    if (evt_xray_start(&c) != 0) return 11;
    g_at = at;
    evt_step_trap_on();
    evt_xray_enter(1u);
    evt_step_trap_off();
    if (g_step < at) return CHILD_DONE_EARLY;
    if (evt_xray_stop() != 0 || evt_xray_write_file(path) != 0) return 12;
    evt_reader *r;
    char err[256];
    if (evt_reader_open_file(path, "xray", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) return 13;
    evt_event ev;
    evt_status st;
    uint64_t data = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK)
        if (ev.kind != EVT_KIND_LOST) data++;
    int ok = st == EVT_END && r->errors == 0 && data + r->lost == 1u + g_nested;
    evt_reader_close(r);
    return ok ? 0 : CHILD_MISMATCH;
}

/* Child: the first evt_etw_posix_thread_id, stepped. */
static int etw_child(unsigned at)
{
    g_action = etw_nested;
    g_at = at;
    evt_step_trap_on();
    uint32_t tid = evt_etw_posix_thread_id();
    evt_step_trap_off();
    if (g_step < at) return CHILD_DONE_EARLY;
    return tid == (uint32_t)syscall(SYS_gettid) && g_tid_nested == tid ? 0 : CHILD_MISMATCH;
}

static int run_child(int (*body)(unsigned), unsigned at)
{
    alarm(10); /* a handler waiting for itself: die, do not hang */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTRAP, &sa, NULL) != 0) return 10;
    return body(at);
}

/* Sweep N = 1, 2, ... over fresh children until the stepping ends; returns the steps at which the
 * handler's call completed. */
static unsigned sweep(int (*body)(unsigned))
{
    unsigned at, completed = 0;
    int end = -1;
    for (at = 1; at < 20000u && end < 0; at++) {
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) _exit(run_child(body, at));
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGTRAP) end = 0;  /* reached a blocked section */
        else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_DONE_EARLY) end = 1;
        else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) completed++;
        else {
            print_message("step %u: child %s %d\n", at, WIFSIGNALED(status) ? "killed by signal" : "exited",
                          WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            fail();
        }
    }
    print_message("%u steps with the call in a handler, all complete; the sweep ended %s\n", completed,
                  end == 0 ? "where signals are blocked" : end == 1 ? "with the call" : "at the bound");
    assert_true(end >= 0);
    return completed;
}
#endif

static void test_handler_at_every_step_of_the_first_xray_record(void **st)
{
    (void)st;
#if EVT_STEP_OK
    /* calibrate once here (a child inherits it) without recording: the setup stays to be done */
    evt_xray_config c = {4096u, 4u, 1};
    assert_int_equal(evt_xray_start(&c), 0);
    assert_int_equal(evt_xray_stop(), 0);
    static char path[512];
    snprintf(path, sizeof path, "%s/first_record.xray", evt_test_tmpdir());
    g_path = path;
    assert_true(sweep(xray_child) > 5u);
#endif
}

static void test_handler_at_every_step_of_the_first_etw_thread_id(void **st)
{
    (void)st;
#if EVT_STEP_OK
    assert_true(sweep(etw_child) > 5u);
#endif
}

int main(void)
{
    if (!EVT_STEP_OK) { /* CTest reports exit 77 as skipped (SKIP_RETURN_CODE), not passed */
        printf("test_posix_first_call_step: skipped: single-stepping needs x86-64 Linux and an uninstrumented build\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handler_at_every_step_of_the_first_xray_record),
        cmocka_unit_test(test_handler_at_every_step_of_the_first_etw_thread_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

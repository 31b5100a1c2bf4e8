/* The stash of nested user records (src/formats/user/user_nest_enc.c N2), on a thread's first
 * stash, with two handlers nested in each other (the race behind a 'lost 1' in about 1,500 runs of
 * test_user_signals_etw_mt's first test): the thread is inside a user record (XRay carrier: the
 * runtime's in-record test hook raises SIGALRM there); the SIGALRM handler's line goes to the stash,
 * whose first entry names the carrier; between the stash's two tests (the user layer's test hook)
 * a SIGUSR1 handler's line names the carrier and stashes first. The SIGALRM line must then be
 * stashed too and written after the record, not handed to the carrier, whose guard drops it
 * (before the fix: 1 line lost, counted, every run). Every line back, none lost. */
#define EVT_CFG_USER_BACKEND xray
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/user.h"
#include "formats/user/user_enc.h"
#include "user_test_util.h"

static volatile sig_atomic_t g_armed, g_alrm_runs, g_usr1_runs, g_hook_runs;

static void on_usr1(int sig)
{
    (void)sig;
    g_usr1_runs++;
    evt_printf("h2", "second %d", 2);
}

static void on_alrm(int sig)
{
    (void)sig;
    g_alrm_runs++;
    evt_printf("h1", "first %d", 1);
}

/* Inside the thread's record: SIGALRM, once. */
static void in_record(void)
{
    if (!g_armed) return;
    g_armed = 0;
    raise(SIGALRM);
}

/* Between the stash's two tests (SIGALRM's line naming the carrier): SIGUSR1, once. */
static void in_stash(void)
{
    if (g_hook_runs++) return;
    raise(SIGUSR1);
}

static void *thread_body(void *arg)
{
    (void)arg;
    g_armed = 1;
    evt_printf("thr", "outer %d", 0); /* its record takes SIGALRM, whose stash takes SIGUSR1 */
    return NULL;
}

static void test_two_handlers_in_the_first_stash(void **st)
{
    (void)st;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alrm;
    assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
    sa.sa_handler = on_usr1;
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    evt_xray_config cfg = {4096, 8, 1};
    assert_int_equal(evt_xray_start(&cfg), 0);
    evt_user_resend();
    evt_printf("main", "before %d", 0); /* the sites' strings go out from another thread first */
    evt_xray_test_in_record_hook = in_record;
    evt_user_nest_test_hook_ = in_stash;
    pthread_t t; /* a new thread: its stash has never named a carrier */
    assert_int_equal(pthread_create(&t, NULL, thread_body, NULL), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    evt_xray_test_in_record_hook = NULL;
    evt_user_nest_test_hook_ = NULL;
    assert_int_equal(g_alrm_runs, 1);
    assert_int_equal(g_usr1_runs, 1);
    assert_true(g_hook_runs >= 1);
    assert_int_equal(evt_xray_stop(), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/nest_first.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    size_t len;
    uint8_t *buf = evt_test_read_file(path, &len);
    ut_trace tr;
    assert_int_equal(ut_decode(buf, len, "xray", NULL, &tr), EVT_END);
    unsigned thr = 0, h1 = 0, h2 = 0;
    for (unsigned i = 0; i < tr.n; i++) {
        if (!(tr.ev[i].has & EVT_M_TEXT)) continue;
        if (!strcmp(tr.ev[i].name, "thr")) thr++, assert_string_equal(tr.ev[i].text, "outer 0");
        if (!strcmp(tr.ev[i].name, "h1")) h1++, assert_string_equal(tr.ev[i].text, "first 1");
        if (!strcmp(tr.ev[i].name, "h2")) h2++, assert_string_equal(tr.ev[i].text, "second 2");
    }
    printf("thread line %u, SIGALRM line %u, SIGUSR1 line %u, lost %llu\n", thr, h1, h2, (unsigned long long)tr.lost);
    assert_int_equal(tr.errors, 0);
    assert_int_equal(tr.lost, 0);
    assert_int_equal(thr, 1);
    assert_int_equal(h2, 1);
    assert_int_equal(h1, 1);
    free(tr.ev);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_two_handlers_in_the_first_stash)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

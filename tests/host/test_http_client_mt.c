/* The HTTP client (src/host/http_client.c) used by several threads of a library user at once: the
 * first requests of every thread start together (a barrier), so they all meet libcurl's loading
 * and its one-time global initialisation, which runs once (a mutex and an acquire/release flag:
 * under TSan a plain flag there is a data race); every request then reaches the stand-in server
 * (tests/support/evt_fake_clickhouse.c) and gets its 200. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evt_fake_clickhouse.h"
#include "evtrace/alloc.h"
#include "host/http_client.h"

#define THREADS 4
#define REQUESTS 3 /* per thread */

typedef struct {
    const evt_http_url *u;
    pthread_barrier_t *go;
    int ok;           /* requests answered 200 */
    char err[600];    /* the first failure's message (a request's err and its status) */
} job;

static void *run(void *arg)
{
    job *j = arg;
    evt_http_opts o;
    memset(&o, 0, sizeof o);
    pthread_barrier_wait(j->go);
    for (int k = 0; k < REQUESTS; k++) {
        static const char stmt[] = "SELECT 1";
        char *body = NULL;
        size_t len = 0;
        char err[512] = "";
        int st = evt_http_post(j->u, &o, "/", stmt, sizeof stmt - 1, &body, &len, err, sizeof err);
        if (st == 200) j->ok++;
        else if (!j->err[0]) snprintf(j->err, sizeof j->err, "status %d: %s", st, err);
        evt_free(body);
    }
    return NULL;
}

static void first_requests_of_several_threads(void **st)
{
    (void)st;
    evt_fake_ch *f = evt_fake_ch_start(0);
    assert_non_null(f);
    evt_http_url u;
    char err[512] = "";
    assert_int_equal(evt_http_parse_url(evt_fake_ch_url(f), &u, err, sizeof err), 1);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, THREADS);
    job jobs[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].u = &u;
        jobs[i].go = &go;
        assert_int_equal(pthread_create(&t[i], NULL, run, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    evt_fake_ch_stop(f);
    for (int i = 0; i < THREADS; i++) {
        if (jobs[i].ok != REQUESTS) fail_msg("thread %d: %d of %d requests answered 200 (%s)", i, jobs[i].ok, REQUESTS, jobs[i].err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_requests_of_several_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

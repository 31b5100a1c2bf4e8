/* The end of the RKH signal tests of evtrace/user.h (test_user_signals_rkh*_mt.c, after
 * user_signals.h): the recorder's stream flushed, decoded and checked with us_check. Inline in
 * each test: the recorder's layout is the test's build's (EVT_RKH_OWNED). */
#ifndef USER_SIGNALS_RKH_H
#define USER_SIGNALS_RKH_H

#include "evt_rkh_test.h"

/* Every line back from out's stream (us_check). */
static inline void us_rkh_check_stream(const evt_rkh_test_buf *out)
{
    ut_trace t;
    assert_int_equal(ut_decode(out->p, out->n, "rkh", NULL, &t), EVT_END);
    us_check(&t);
    free(t.ev);
}

/* Detach the user events, flush r, then: nothing dropped (under TSan us_check counts what is
 * missing instead) and every line back. Frees out. */
static inline void us_rkh_finish(evt_rkh_recorder *r, evt_rkh_test_buf *out, const char *what)
{
    evt_rkh_user_attach(NULL);
    evt_rkh_flush(r);
    assert_int_equal(out->overflow, 0);
    printf("%s: stream %zu bytes, recorder dropped %llu\n", what, out->n, (unsigned long long)r->loss.dropped);
#if !US_TSAN
    assert_int_equal(r->loss.dropped, 0);
#endif
    us_rkh_check_stream(out);
    evt_rkh_test_buf_free(out);
}

#endif

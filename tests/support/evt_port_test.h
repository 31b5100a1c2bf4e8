/* Test helpers for the POSIX port. cmocka tests include this after <setjmp.h>/<cmocka.h>. */
#ifndef EVT_PORT_TEST_H
#define EVT_PORT_TEST_H

/* 1 if locks can be biased here (membarrier(2) registered: B1 in src/ports/posix/evt_port_impl.h).
 * Otherwise prints why the bias cases skip and returns 0, except in CI (CI=true), where the kernel
 * has membarrier and a skip would hide a broken claim: there it fails the test. */
int evt_port_test_bias_available(void);
/* The same test for anything else that needs membarrier(2) (what names it: "thread ownership
 * (evt_rkh_own)"): 1, or prints why it skips and returns 0, failing in CI. */
int evt_port_test_membarrier_available(const char *what);

/* Install fn as signo's handler with sigaction (persistent, unlike signal(); no SA_RESTART; no
 * mask), or SIG_DFL/SIG_IGN; fails the test if sigaction does. */
void evt_port_test_on_signal(int signo, void (*fn)(int));
/* The same with sa_flags (e.g. SA_RESTART, so that the threads' blocking calls are not cut short). */
void evt_port_test_on_signal_flags(int signo, void (*fn)(int), int flags);

#endif

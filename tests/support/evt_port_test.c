/* Test helpers for the POSIX port (see evt_port_test.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "evt_port_test.h"
#include "evtrace/port.h"

int evt_port_test_membarrier_available(const char *what)
{
    if (evt_posix_membarrier_ready()) return 1;
    const char *ci = getenv("CI");
    if (ci && !strcmp(ci, "true")) fail_msg("membarrier(PRIVATE_EXPEDITED) unavailable in CI (%s)", what);
    print_message("skipped: membarrier(PRIVATE_EXPEDITED) unavailable here: no %s\n", what);
    return 0;
}
int evt_port_test_bias_available(void) { return evt_port_test_membarrier_available("lock is biased (B1)"); }

void evt_port_test_on_signal_flags(int signo, void (*fn)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(signo, &sa, NULL), 0);
}
void evt_port_test_on_signal(int signo, void (*fn)(int)) { evt_port_test_on_signal_flags(signo, fn, 0); }

/* Libraries loaded on first use (src/host/lazy_lib.c): a present library resolves every listed
 * symbol into its typed pointer; a missing library or symbol is an error naming it, and the same
 * answer comes back on every later call; and the evtrace command itself does not load libcurl or
 * libmicrohttpd when it starts (the dynamic loader's own list, LD_TRACE_LOADED_OBJECTS, as ldd
 * prints it), which cost every start 12 ms on the project's VM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "host/lazy_lib.h"

/* libm through the users' macro, with no prefix: L.cos, L.sqrt */
#define M_FNS(X, A) X(cos, A) X(sqrt, A)
EVT_LAZY_LIB(L, g_libm, "libm", , M_FNS, "libevtrace-no-such-library.so.9", "libm.so.6");
static const char *const k_m_names[] = {"libm.so.6", NULL};

static void loads_every_symbol(void **st)
{
    (void)st;
    char err[256] = "";
    assert_null(L.cos);
    assert_int_equal(evt_lazy_load(&g_libm, err, sizeof err), 0); /* the second soname loads */
    assert_non_null(L.cos);
    assert_true(L.sqrt(16.0) == 4.0);
    assert_true(L.cos(0.0) == 1.0);
    assert_int_equal(evt_lazy_load(&g_libm, err, sizeof err), 0); /* once loaded, stays loaded */
}

static void missing_library_is_an_error(void **st)
{
    (void)st;
    static const char *const names[] = {"libevtrace-no-such-library.so.9", "libevtrace-nor-this.so", NULL};
    void *slot = NULL;
    static const char *const syms[] = {"x", NULL};
    void *const slots[] = {&slot};
    evt_lazy_lib lib = {"libnothing", names, syms, slots, PTHREAD_MUTEX_INITIALIZER, 0, ""};
    char err[512] = "";
    assert_int_equal(evt_lazy_load(&lib, err, sizeof err), -1);
    assert_non_null(strstr(err, "libnothing cannot be loaded"));
    assert_non_null(strstr(err, "libevtrace-no-such-library.so.9"));
    char again[512] = "";
    assert_int_equal(evt_lazy_load(&lib, again, sizeof again), -1); /* tried once: the same answer */
    assert_string_equal(again, err);
    assert_null(slot);
}

static void missing_symbol_is_an_error(void **st)
{
    (void)st;
    static const char *const syms[] = {"cos", "evt_no_such_symbol_in_libm", NULL};
    void *a = NULL, *b = NULL;
    void *const slots[] = {&a, &b};
    evt_lazy_lib lib = {"libm", k_m_names, syms, slots, PTHREAD_MUTEX_INITIALIZER, 0, ""};
    char err[512] = "";
    assert_int_equal(evt_lazy_load(&lib, err, sizeof err), -1);
    assert_non_null(strstr(err, "symbol evt_no_such_symbol_in_libm is missing"));
    assert_null(a); /* no pointer into the library it closed again */
    assert_null(b);
}

/* The command's start loads neither network library (they are dlopen'ed on first use). */
static void command_start_loads_no_network_library(void **st)
{
    (void)st;
    const char *argv[] = {evt_test_bin(), "--version", NULL};
    assert_int_equal(setenv("LD_TRACE_LOADED_OBJECTS", "1", 1), 0);
    char *out = NULL;
    size_t n = 0;
    int rc = evt_test_runv(argv, &out, &n, NULL);
    unsetenv("LD_TRACE_LOADED_OBJECTS");
    assert_int_equal(rc, 0);
    assert_non_null(out);
    assert_non_null(strstr(out, "libc.so")); /* it is the loader's list */
    if (strstr(out, "libcurl") || strstr(out, "libmicrohttpd")) fail_msg("loaded at start:\n%s", out);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_every_symbol),
        cmocka_unit_test(missing_library_is_an_error),
        cmocka_unit_test(missing_symbol_is_an_error),
        cmocka_unit_test(command_start_loads_no_network_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

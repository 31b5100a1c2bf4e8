/* Names built once per key (src/formats/common/name_cache.c): a stored name comes back as the
 * same stable copy, keys that share a front slot both stay found, unknown keys give NULL, and
 * the copies stay valid while many more keys are added. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "formats/common/name_cache.h"

static void test_put_get(void **st)
{
    (void)st;
    evt_name_cache c;
    memset(&c, 0, sizeof c);
    assert_null(evt_name_cache_get(&c, 7));
    char buf[16] = "USER_4096";
    const char *a = evt_name_cache_put(&c, 4096, buf, strlen(buf));
    assert_non_null(a);
    assert_ptr_not_equal(a, buf); /* a copy: the caller's buffer may change */
    strcpy(buf, "changed");
    assert_string_equal(evt_name_cache_get(&c, 4096), "USER_4096");
    assert_ptr_equal(evt_name_cache_get(&c, 4096), a);
    /* two keys in one front slot */
    uint64_t k2 = 4097;
    while (evt_name_cache_slot_(k2) != evt_name_cache_slot_(4096)) k2++;
    const char *b = evt_name_cache_put(&c, k2, "other", 5);
    assert_string_equal(evt_name_cache_get(&c, 4096), "USER_4096");
    assert_string_equal(evt_name_cache_get(&c, k2), "other");
    assert_ptr_equal(evt_name_cache_get(&c, k2), b);
    assert_null(evt_name_cache_get(&c, 4097));
    evt_name_cache_free(&c);
    assert_null(evt_name_cache_get(&c, 4096));
}

static void test_many_keys_stay_valid(void **st)
{
    (void)st;
    evt_name_cache c;
    memset(&c, 0, sizeof c);
    const char *first = evt_name_cache_put(&c, 1ull << 56, "first", 5);
    char nm[32];
    for (uint64_t k = 0; k < 5000; k++) {
        snprintf(nm, sizeof nm, "#%llu", (unsigned long long)k);
        assert_non_null(evt_name_cache_put(&c, k, nm, strlen(nm)));
    }
    for (uint64_t k = 0; k < 5000; k += 7) {
        snprintf(nm, sizeof nm, "#%llu", (unsigned long long)k);
        assert_string_equal(evt_name_cache_get(&c, k), nm);
    }
    assert_ptr_equal(evt_name_cache_get(&c, 1ull << 56), first);
    assert_string_equal(first, "first");
    evt_name_cache_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_get),
        cmocka_unit_test(test_many_keys_stay_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

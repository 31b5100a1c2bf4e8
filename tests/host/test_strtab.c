/* String interning (src/host/strtab.c): dense ids in first-use order, lookup by content whatever
 * the address (a reused buffer with new bytes is a new string), prefixes and lengths that differ
 * by one byte, strings of every length around the hash's 8-byte steps, growth past many
 * entries, find without adding, and the length of each id; the recent cache trusts an address
 * only for a whole C string in the program's read-only image (a rewritten heap buffer or a
 * literal's prefix is compared). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "host/ro_image.h"
#include "host/strtab.h"

static void ids_are_dense_and_by_content(void **state)
{
    (void)state;
    evt_strtab t;
    evt_strtab_init(&t);
    int added = -1;
    assert_int_equal(evt_strtab_intern(&t, "sem_take", 8, &added), 1);
    assert_int_equal(added, 1);
    assert_int_equal(evt_strtab_intern(&t, "sem_give", 8, &added), 2);
    char buf[32];
    strcpy(buf, "sem_take"); /* another address, same bytes */
    assert_int_equal(evt_strtab_intern(&t, buf, 8, &added), 1);
    assert_int_equal(added, 0);
    strcpy(buf, "sem_tak"); /* the same address (met lately), other bytes: a prefix */
    assert_int_equal(evt_strtab_intern(&t, buf, 7, &added), 3);
    assert_int_equal(added, 1);
    strcpy(buf, "sem_takf"); /* same address and length, one byte differs */
    assert_int_equal(evt_strtab_intern(&t, buf, 8, &added), 4);
    assert_int_equal(evt_strtab_intern(&t, "sem_take", 7, NULL), 3); /* n bytes only */
    assert_int_equal(evt_strtab_intern(&t, "", 0, &added), 5);
    assert_int_equal(added, 1);
    assert_string_equal(evt_strtab_str(&t, 1), "sem_take");
    assert_string_equal(evt_strtab_str(&t, 3), "sem_tak");
    assert_string_equal(evt_strtab_str(&t, 5), "");
    assert_int_equal(evt_strtab_len(&t, 1), 8);
    assert_int_equal(evt_strtab_len(&t, 3), 7);
    assert_int_equal(evt_strtab_len(&t, 5), 0);
    assert_null(evt_strtab_str(&t, 0));
    assert_null(evt_strtab_str(&t, 6));
    assert_int_equal(evt_strtab_len(&t, 6), 0);
    assert_int_equal(evt_strtab_find(&t, "sem_give", 8), 2);
    assert_int_equal(evt_strtab_find(&t, "sem_giv", 7), 0);
    assert_int_equal(evt_strtab_find(&t, "sem_givex", 9), 0);
    assert_int_equal(t.n, 5);
    evt_strtab_free(&t);
}

/* Every length 0..40 of one text (the 8-byte steps and their tails), then 20,000 strings (the
 * table grows many times): every id is found again with its own bytes. */
static void lengths_and_growth(void **state)
{
    (void)state;
    evt_strtab t;
    evt_strtab_init(&t);
    static const char text[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH";
    for (size_t n = 0; n <= 40; n++) assert_int_equal(evt_strtab_intern(&t, text, n, NULL), n + 1);
    for (size_t n = 0; n <= 40; n++) {
        assert_int_equal(evt_strtab_find(&t, text, n), n + 1);
        assert_int_equal(evt_strtab_len(&t, (uint32_t)n + 1), n);
    }
    char buf[32];
    for (uint32_t i = 0; i < 20000; i++) {
        int n = snprintf(buf, sizeof buf, "task_%u", i);
        assert_int_equal(evt_strtab_intern(&t, buf, (size_t)n, NULL), 42 + i);
    }
    for (uint32_t i = 0; i < 20000; i++) {
        int n = snprintf(buf, sizeof buf, "task_%u", i);
        assert_int_equal(evt_strtab_find(&t, buf, (size_t)n), 42 + i);
        assert_string_equal(evt_strtab_str(&t, 42 + i), buf);
    }
    assert_int_equal(t.n, 41 + 20000);
    evt_strtab_free(&t);
}

/* The recent cache by address: a literal (read-only image) is named by its address alone; a heap
 * buffer rewritten with other text of the same length at the same address, and a literal of which
 * only a prefix was interned, are new strings (they fail if their addresses were trusted). */
static void read_only_strings_by_address(void **state)
{
    (void)state;
    evt_strtab t;
    evt_strtab_init(&t);
    static const char lit[] = "queue depth";
    /* a heap buffer whose cache slot is not the literal's (the slot is a hash of the address,
     * which ASLR moves: 1 run in 64 took the literal's slot, and its checks failed) */
    char *tries[64], *h = NULL;
    size_t ntries = 0;
    while (ntries < 64) {
        h = malloc(16);
        assert_non_null(h);
        if (evt_strtab_recent_slot_(h) != evt_strtab_recent_slot_(lit)) break;
        tries[ntries++] = h;
    }
    while (ntries) free(tries[--ntries]);
    assert_int_not_equal(evt_strtab_recent_slot_(h), evt_strtab_recent_slot_(lit));
    strcpy(h, "SLEEP");
    uint32_t a = evt_strtab_intern(&t, lit, strlen(lit), NULL), b = evt_strtab_intern(&t, h, 5, NULL);
    assert_int_equal(a, 1);
    assert_int_equal(b, 2);
    assert_int_equal(evt_strtab_recent_cstr(&t, lit, SIZE_MAX), a);
    assert_int_equal(evt_strtab_recent_cstr(&t, h, SIZE_MAX), b);
    if (evt_ro_image_self()->n) /* ELF/Linux: the literal is trusted, the heap buffer is not */
        assert_int_equal(t.recent[evt_strtab_recent_slot_(lit)].ro, 1);
    assert_int_equal(t.recent[evt_strtab_recent_slot_(h)].ro, 0);
    strcpy(h, "READY"); /* the same address and length, other text */
    assert_int_equal(evt_strtab_recent_cstr(&t, h, SIZE_MAX), 0);
    assert_int_equal(evt_strtab_intern(&t, h, 5, NULL), 3);
    assert_string_equal(evt_strtab_str(&t, 3), "READY");
    strcpy(h, "SLEEP");
    assert_int_equal(evt_strtab_intern(&t, h, 5, NULL), b); /* by content again */
    /* a literal's prefix: its address is a longer C string, compared */
    static const char lit2[] = "semaphore count";
    assert_int_equal(evt_strtab_intern(&t, lit2, 9, NULL), 4);
    assert_int_equal(t.recent[evt_strtab_recent_slot_(lit2)].ro, 0);
    assert_int_equal(evt_strtab_recent_cstr(&t, lit2, SIZE_MAX), 0);
    assert_int_equal(evt_strtab_intern(&t, lit2, strlen(lit2), NULL), 5);
    assert_int_equal(evt_strtab_recent_cstr(&t, lit2, SIZE_MAX), 5);
    free(h);
    evt_strtab_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ids_are_dense_and_by_content),
        cmocka_unit_test(lengths_and_growth),
        cmocka_unit_test(read_only_strings_by_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

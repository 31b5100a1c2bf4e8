/* The μT-Kernel tables (src/kernel/utk/utk_fncd.h): function codes as formats/utkernel.md §3 gives
 * them, names on the reader side (txtb_hooks_dec), TTS_* names, and the table's shape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "formats/threadx/txtb_hooks_dec.h"
#include "kernel/utk/utk_dbgspt.h"
#include "kernel/utk/utk_fncd.h"

static void test_codes(void **state)
{
    (void)state;
    /* the documented examples */
    assert_int_equal((uint32_t)UTK_TFN_tk_wai_sem, 0x80190300u);
    assert_int_equal((uint32_t)UTK_TFN_tk_ref_ver, 0x80510100u);
    assert_int_equal((uint32_t)UTK_TFN_tk_ref_sys, 0x80520100u);
    assert_int_equal((uint32_t)UTK_TFN_tk_ext_tsk, 0x80040000u);
    assert_int_equal((uint32_t)UTK_TFN_tk_wai_flg, 0x80240500u);
    assert_int_equal((uint32_t)UTK_TFN_tk_ref_idv, 0x80630100u);
    assert_int_equal(UTK_FNCD16(0x19, 3), 0x8193u);
    /* fncd >> 16 (arithmetic) = 0xFFFF8000 + index */
    assert_int_equal((int32_t)UTK_TFN_tk_wai_sem >> 16, (int32_t)(0xFFFF8000u + 0x19u));
    assert_int_equal(UTK_FNCD_INDEX(UTK_TFN_tk_wai_sem), 0x19);
    assert_int_equal(UTK_FNCD_NARGS(UTK_TFN_tk_wai_sem), 3);
    assert_true(UTK_FNCD_IS_SVC(UTK_TFN_tk_sig_sem));
    assert_false(UTK_FNCD_IS_SVC(0x00000103));
}

/* Indices run 1..0x63 without gaps, in order; every name starts with tk_. */
static void test_table_shape(void **state)
{
    (void)state;
    static const struct { unsigned ix; const char *name; unsigned n; } rows[] = {
#define ROW_(ix, name, n, oc, role) {ix, #name, n},
        UTK_FN_TABLE(ROW_)
#undef ROW_
    };
    size_t count = sizeof rows / sizeof rows[0];
    assert_int_equal(count, UTK_FN_INDEX_MAX);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(rows[i].ix, i + 1);
        assert_int_equal(strncmp(rows[i].name, "tk_", 3), 0);
        assert_true(rows[i].n <= 5);
        FN code = UTK_FNCD(rows[i].ix, rows[i].n);
        assert_string_equal(txtb_hooks_utk_fn_name(code), rows[i].name);
    }
    assert_null(txtb_hooks_utk_fn_name(0x00000100));            /* extended SVC */
    assert_null(txtb_hooks_utk_fn_name((int32_t)0x80640000u));   /* past the table */
}

static void test_tts_names(void **state)
{
    (void)state;
    assert_string_equal(txtb_hooks_utk_tts_name(TTS_RUN), "TTS_RUN");
    assert_string_equal(txtb_hooks_utk_tts_name(TTS_RDY), "TTS_RDY");
    assert_string_equal(txtb_hooks_utk_tts_name(TTS_WAI), "TTS_WAI");
    assert_string_equal(txtb_hooks_utk_tts_name(TTS_SUS), "TTS_SUS");
    assert_string_equal(txtb_hooks_utk_tts_name(TTS_WAS), "TTS_WAS");
    assert_string_equal(txtb_hooks_utk_tts_name(TTS_DMT), "TTS_DMT");
    assert_string_equal(txtb_hooks_utk_tts_name(TTS_WAI | TTS_NODISWAI), "TTS_WAI");
    assert_string_equal(txtb_hooks_utk_tts_name(0), "NONEXISTENT");
    assert_null(txtb_hooks_utk_tts_name(0x03));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codes),
        cmocka_unit_test(test_table_shape),
        cmocka_unit_test(test_tts_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

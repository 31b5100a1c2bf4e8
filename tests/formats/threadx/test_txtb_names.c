/* The TXTB name tables: sorted and unique (listed in id order; the reader indexes them by id), every entry found by
 * lookup, product ranges named, fallbacks for unknown and user ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_names.h"

static void test_sorted_unique_and_found(void **st)
{
    (void)st;
    unsigned n = 0;
    uint32_t prev = 0;
    for (const txtb_event_info *e; (e = txtb_event_at(n)) != NULL; n++) {
        if (n) assert_true(e->id > prev);
        prev = e->id;
        assert_ptr_equal(txtb_event_lookup(e->id), e);
        assert_non_null(e->name);
        assert_true(strlen(e->name) > 0);
    }
    assert_true(n > 600); /* ThreadX ~95 + FileX 72 + NetX 194 + USBX 150 */
}

static void test_known_names(void **st)
{
    (void)st;
    char b[48];
    assert_string_equal(txtb_event_name(1, b, sizeof b), "THREAD_RESUME");
    assert_string_equal(txtb_event_name(129, b, sizeof b), "TIMER_PERFORMANCE_SYSTEM_INFO_GET");
    assert_string_equal(txtb_event_name(201, b, sizeof b), "FX_INTERNAL_LOG_SECTOR_CACHE_MISS");
    assert_string_equal(txtb_event_name(261, b, sizeof b), "FX_MEDIA_OPEN");
    assert_string_equal(txtb_event_name(372, b, sizeof b), "NX_IP_CREATE");
    assert_string_equal(txtb_event_name(501, b, sizeof b), "NXD_IP_RAW_PACKET_FILTER_SET");
    assert_string_equal(txtb_event_name(601, b, sizeof b), "UX_HOST_STACK_CLASS_INSTANCE_CREATE");
    assert_string_equal(txtb_event_name(872, b, sizeof b), "UX_DEVICE_STACK_CLASS_UNREGISTER");
    assert_string_equal(txtb_event_name(680, b, sizeof b), "UX_HOST_CLASS_CDC_ACM_READ");
    assert_string_equal(txtb_event_name(835, b, sizeof b), "UX_HOST_CLASS_GSER_WRITE");
    assert_string_equal(txtb_event_name(980, b, sizeof b), "UX_DEVICE_CLASS_STORAGE_READ_TOC");
    assert_string_equal(txtb_event_name(998, b, sizeof b), "UX_DEVICE_CLASS_DFU_DEACTIVATE");
    assert_string_equal(txtb_event_name(999, b, sizeof b), "UX_ERROR");
    assert_string_equal(txtb_event_name(1033, b, sizeof b), "UX_DEVICE_CLASS_CCID_HARDWARE_ERROR");
    assert_string_equal(txtb_event_name(1000, b, sizeof b), "UX_DEVICE_CLASS_PRINTER_ACTIVATE");
    assert_int_equal(txtb_event_lookup(999)->filter, 0x01000000u); /* UX_TRACE_ERRORS */
    assert_int_equal(txtb_event_lookup(835)->filter, 0x20000000u); /* host class */
    assert_int_equal(txtb_event_lookup(436)->filter, 0x00800000u); /* NX UDP events */
    assert_int_equal(txtb_event_lookup(69)->filter, TXTB_F_QUEUE);
}

static void test_fallback_names(void **st)
{
    (void)st;
    char b[48];
    assert_string_equal(txtb_event_name(4096, b, sizeof b), "USER_4096");
    assert_string_equal(txtb_event_name(65535, b, sizeof b), "USER_65535");
    assert_string_equal(txtb_event_name(70000, b, sizeof b), "UNKNOWN_70000");
    assert_string_equal(txtb_event_name(299, b, sizeof b), "FILEX_299");
    assert_string_equal(txtb_event_name(307, b, sizeof b), "NETX_307");
    assert_string_equal(txtb_event_name(1099, b, sizeof b), "UNKNOWN_1099");
    assert_string_equal(txtb_event_name(7, b, sizeof b), "UNKNOWN_7");
    assert_string_equal(txtb_objtype_name(14, b, sizeof b), "nx_udp_socket");
    assert_string_equal(txtb_objtype_name(99, b, sizeof b), "type_99");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sorted_unique_and_found),
        cmocka_unit_test(test_known_names),
        cmocka_unit_test(test_fallback_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The XRay instrumentation-map loader's ELF path (src/formats/xray/xray_map_host.c) on a minimal
 * ELF64 built here: a well-formed one loads (ids by function, names from .symtab, a version-2
 * PC-relative sled), and section headers whose ranges lie past the end of the file are refused
 * with a message naming it, before any block sized from them is allocated (fuzz_xray_map found a
 * 100-byte file asking for 704 MB). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "evt_test.h"
#include "formats/common/bytes.h"
#include "formats/xray/xray_map.h"

/* Layout of the test ELF: header, .shstrtab, xray_instr_map (3 sleds), .symtab (3), .strtab,
 * then 5 section headers. */
enum { OFF_SHSTR = 64, OFF_MAP = 112, OFF_SYM = 208, OFF_STR = 280, OFF_SH = 296, NSEC = 5, ELF_LEN = OFF_SH + NSEC * 64 };
enum { SEC_MAP = 2, SEC_SYM = 3 };
#define MAP_ADDR 0x2000u
static const char k_shstr[] = "\0.shstrtab\0xray_instr_map\0.symtab\0.strtab"; /* names at 1, 11, 26, 34 */
static const char k_str[] = "\0leaf\0fib";                                     /* names at 1, 6 */

static void sec_(uint8_t *e, uint32_t name, uint32_t type, uint64_t addr, uint64_t off, uint64_t size, uint32_t link,
                 uint64_t entsize)
{
    evt_put_u32le(e, name); evt_put_u32le(e + 4, type); evt_put_u64le(e + 16, addr); evt_put_u64le(e + 24, off);
    evt_put_u64le(e + 32, size); evt_put_u32le(e + 40, link); evt_put_u64le(e + 56, entsize);
}

static void sled_(uint8_t *s, uint64_t addr, uint64_t fn, uint8_t kind, uint8_t version)
{
    evt_put_u64le(s, addr); evt_put_u64le(s + 8, fn); s[16] = kind; s[17] = 1; s[18] = version;
}

static void sym_(uint8_t *s, uint32_t name, uint64_t value)
{
    evt_put_u32le(s, name); s[4] = 0x12; /* GLOBAL FUNC */ evt_put_u16le(s + 6, 1); evt_put_u64le(s + 8, value);
    evt_put_u64le(s + 16, 16);
}

static void build_elf_(uint8_t *e)
{
    memset(e, 0, ELF_LEN);
    memcpy(e, "\x7f" "ELF", 4); e[4] = 2; e[5] = 1; e[6] = 1;
    evt_put_u16le(e + 16, 2); evt_put_u16le(e + 18, 62); evt_put_u32le(e + 20, 1);
    evt_put_u64le(e + 0x28, OFF_SH); evt_put_u16le(e + 0x34, 64);
    evt_put_u16le(e + 0x3A, 64); evt_put_u16le(e + 0x3C, NSEC); evt_put_u16le(e + 0x3E, 1);
    memcpy(e + OFF_SHSTR, k_shstr, sizeof k_shstr);
    sled_(e + OFF_MAP, 0x1000, 0x1000, 0, 0);
    sled_(e + OFF_MAP + 32, 0x1010, 0x1000, 1, 0);
    /* version 2: the function field is relative to its own address */
    sled_(e + OFF_MAP + 64, 0x1020, (uint64_t)0x1020 - (uint64_t)(MAP_ADDR + 64 + 8), 0, 2);
    sym_(e + OFF_SYM + 24, 1, 0x1000);
    sym_(e + OFF_SYM + 48, 6, 0x1020);
    memcpy(e + OFF_STR, k_str, sizeof k_str);
    sec_(e + OFF_SH + 64 * 1, 1, 3, 0, OFF_SHSTR, sizeof k_shstr, 0, 0);
    sec_(e + OFF_SH + 64 * SEC_MAP, 11, 1, MAP_ADDR, OFF_MAP, 96, 0, 0);
    sec_(e + OFF_SH + 64 * SEC_SYM, 26, 2, 0, OFF_SYM, 72, 4, 24);
    sec_(e + OFF_SH + 64 * 4, 34, 3, 0, OFF_STR, sizeof k_str, 0, 0);
}

static const char *write_(const uint8_t *e, size_t n)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/map.elf", evt_test_tmpdir());
    assert_int_equal(evt_test_write_file(path, e, n), 0);
    return path;
}

static void elf_map_loads(void **st)
{
    (void)st;
    uint8_t e[ELF_LEN];
    build_elf_(e);
    xray_map m;
    memset(&m, 0, sizeof m);
    char err[256] = "";
    assert_int_equal(xray_map_load(&m, write_(e, sizeof e), err, sizeof err), 0);
    assert_int_equal(m.n, 2); /* two functions: sleds 1-2 share one */
    assert_string_equal(xray_map_name(&m, 1), "leaf");
    assert_string_equal(xray_map_name(&m, 2), "fib");
    assert_null(xray_map_name(&m, 3));
    xray_map_free(&m);
}

/* A section whose (offset, size) lies past the end of the file: refused, naming it. */
static void refuse_(uint8_t *e, const char *want)
{
    xray_map m;
    memset(&m, 0, sizeof m);
    char err[256] = "";
    assert_int_equal(xray_map_load(&m, write_(e, ELF_LEN), err, sizeof err), -1);
    assert_non_null(strstr(err, want));
    assert_int_equal(m.n, 0);
}

static void ranges_past_the_end_refused(void **st)
{
    (void)st;
    uint8_t e[ELF_LEN];
    build_elf_(e); /* the instrumentation map claims 704 MB */
    evt_put_u64le(e + OFF_SH + 64 * SEC_MAP + 32, 704u * 1024 * 1024);
    refuse_(e, "section xray_instr_map outside the file");
    build_elf_(e); /* section headers beyond the file */
    evt_put_u64le(e + 0x28, 1ull << 40);
    refuse_(e, "section header table outside the file");
    build_elf_(e); /* the name table past the end */
    evt_put_u64le(e + OFF_SH + 64 * 1 + 24, ELF_LEN - 2);
    refuse_(e, "section name table");
    build_elf_(e); /* a symbol table past the end: the map loads without names */
    evt_put_u64le(e + OFF_SH + 64 * SEC_SYM + 32, 24ull * 0x3000000);
    xray_map m;
    memset(&m, 0, sizeof m);
    char err[256] = "";
    assert_int_equal(xray_map_load(&m, write_(e, sizeof e), err, sizeof err), 0);
    assert_int_equal(m.n, 2);
    assert_null(xray_map_name(&m, 1));
    xray_map_free(&m);
}

/* YAML maps that are not maps: /dev/zero (one endless line: getline grew its buffer to gigabytes),
 * a directory (a read error taken for the end: "no entries found"), lines that never hold an
 * entry (/dev/urandom was read without end). Each is refused at once, naming why. */
static void yaml_not_a_map_refused(void **st)
{
    (void)st;
    xray_map m;
    char err[256];
    memset(&m, 0, sizeof m);
    assert_int_equal(xray_map_load(&m, "/dev/zero", err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1 is longer than"));
    memset(&m, 0, sizeof m);
    assert_int_equal(xray_map_load(&m, evt_test_tmpdir(), err, sizeof err), -1);
    assert_non_null(strstr(err, "read error"));
    static char text[2000 * 6 + 256];
    size_t n = 0;
    for (int i = 0; i < 2000; i++) n += (size_t)snprintf(text + n, sizeof text - n, "x%04d\n", i);
    n += (size_t)snprintf(text + n, sizeof text - n, "- { id: 1, address: 0x10, function: 0x10, kind: function-enter }\n");
    memset(&m, 0, sizeof m);
    assert_int_equal(xray_map_load(&m, write_((const uint8_t *)text, n), err, sizeof err), -1);
    assert_non_null(strstr(err, "in the first 1000 lines"));
    /* the same entry after a few lines loads */
    n = (size_t)snprintf(text, sizeof text, "---\n- { id: 1, address: 0x10, function: 0x10, kind: function-enter, "
                                           "function-name: f }\n...\n");
    memset(&m, 0, sizeof m);
    assert_int_equal(xray_map_load(&m, write_((const uint8_t *)text, n), err, sizeof err), 0);
    assert_int_equal(m.n, 1);
    assert_string_equal(xray_map_name(&m, 1), "f");
    xray_map_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elf_map_loads),
        cmocka_unit_test(ranges_past_the_end_refused),
        cmocka_unit_test(yaml_not_a_map_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

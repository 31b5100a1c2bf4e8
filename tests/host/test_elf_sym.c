/* evt_elf_symbol (src/host/elf_sym.c): a hand-built 32-bit big-endian ELF with .symtab/.strtab
 * (the symbol found with its value, a missing one reported), the same layout little-endian, the
 * evtrace binary itself (64-bit: `main` found), and damaged files (not ELF, a section table past the
 * end, no symbol table, a directory) reported with a reason, and a sparse 300 MiB file (its debug
 * information, say) of which only the section headers and the tables are read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "evtrace/source_remote.h"

static uint8_t img[1024];
static int g_big;

static void put16(size_t at, uint16_t v)
{
    img[at + (g_big ? 0 : 1)] = (uint8_t)(v >> 8);
    img[at + (g_big ? 1 : 0)] = (uint8_t)v;
}
static void put32(size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++) img[at + (size_t)(g_big ? i : 3 - i)] = (uint8_t)(v >> (24 - 8 * i));
}

/* An ELF32 with sections: 0 null, 1 .symtab (link 2), 2 .strtab. Symbols: null, "other", "_SEGGER_RTT". */
static size_t build32(int big, int with_symtab)
{
    g_big = big;
    memset(img, 0, sizeof img);
    memcpy(img, "\x7f" "ELF", 4);
    img[4] = 1;              /* ELFCLASS32 */
    img[5] = big ? 2 : 1;    /* data encoding */
    img[6] = 1;
    const size_t strtab = 0x100, symtab = 0x140, shoff = 0x200;
    static const char names[] = "\0other\0_SEGGER_RTT\0";
    memcpy(img + strtab, names, sizeof names);
    /* symbols: 16 bytes each: name, value, size, info, other, shndx */
    put32(symtab + 16 + 0, 1);
    put32(symtab + 16 + 4, 0x08000100u);
    put32(symtab + 32 + 0, 7);
    put32(symtab + 32 + 4, 0x20000400u);
    put32(symtab + 32 + 8, 80);
    put32(0x20, (uint32_t)shoff); /* e_shoff */
    put16(0x2E, 40);              /* e_shentsize */
    put16(0x30, 3);               /* e_shnum */
    /* section 1: symtab */
    put32(shoff + 40 + 4, with_symtab ? 2u : 1u);
    put32(shoff + 40 + 16, (uint32_t)symtab);
    put32(shoff + 40 + 20, 48);
    put32(shoff + 40 + 24, 2);
    put32(shoff + 40 + 36, 16);
    /* section 2: strtab */
    put32(shoff + 80 + 4, 3);
    put32(shoff + 80 + 16, (uint32_t)strtab);
    put32(shoff + 80 + 20, sizeof names);
    return shoff + 3 * 40;
}

static const char *write_tmp(size_t n)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/evt_elf_test_%d.elf", (int)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(img, 1, n, f), n);
    fclose(f);
    return path;
}

static void test_elf32_both_orders(void **s)
{
    (void)s;
    for (int big = 0; big <= 1; big++) {
        const char *p = write_tmp(build32(big, 1));
        uint64_t v = 0;
        char err[200];
        assert_true(evt_elf_symbol(p, "_SEGGER_RTT", &v, err, sizeof err));
        assert_int_equal(v, 0x20000400u);
        assert_true(evt_elf_symbol(p, "other", &v, err, sizeof err));
        assert_int_equal(v, 0x08000100u);
        assert_false(evt_elf_symbol(p, "_SEGGER", &v, err, sizeof err)); /* a prefix is not the name */
        assert_non_null(strstr(err, "no symbol '_SEGGER'"));
        unlink(p);
    }
}

static void test_damaged(void **s)
{
    (void)s;
    uint64_t v;
    char err[200];
    size_t n = build32(0, 0);
    const char *p = write_tmp(n);
    assert_false(evt_elf_symbol(p, "_SEGGER_RTT", &v, err, sizeof err));
    assert_non_null(strstr(err, "no symbol table"));
    build32(0, 1);
    put32(0x20, 0x10000); /* section table past the end */
    p = write_tmp(n);
    assert_false(evt_elf_symbol(p, "_SEGGER_RTT", &v, err, sizeof err));
    assert_non_null(strstr(err, "section header table outside the file (byte 32)"));
    memcpy(img, "\x7f" "ELG", 4);
    p = write_tmp(n);
    assert_false(evt_elf_symbol(p, "_SEGGER_RTT", &v, err, sizeof err));
    assert_non_null(strstr(err, "not an ELF file"));
    unlink(p);
    assert_false(evt_elf_symbol("/nonexistent/evt.elf", "x", &v, err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    assert_false(evt_elf_symbol("/tmp", "x", &v, err, sizeof err));
    assert_non_null(strstr(err, "is a directory"));
}

/* A firmware ELF larger than anything read whole (300 MiB, sparse: its tail is a hole): the
 * symbol is found from the section headers and the two tables alone. */
static void test_large_sparse(void **s)
{
    (void)s;
    const char *p = write_tmp(build32(0, 1));
    assert_int_equal(truncate(p, 300l << 20), 0);
    uint64_t v = 0;
    char err[200];
    assert_true(evt_elf_symbol(p, "_SEGGER_RTT", &v, err, sizeof err));
    assert_int_equal(v, 0x20000400u);
    unlink(p);
}

static void test_own_binary(void **s)
{
    (void)s;
    const char *bin = getenv("EVT_BIN");
    assert_non_null(bin);
    uint64_t v = 0;
    char err[200];
    assert_true(evt_elf_symbol(bin, "main", &v, err, sizeof err));
    assert_true(v != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elf32_both_orders),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_large_sparse),
        cmocka_unit_test(test_own_binary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

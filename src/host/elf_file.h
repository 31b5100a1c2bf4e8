/* An ELF file read in parts (host side): the header, the section header table and then only the
 * sections a caller asks for, each capped, so a firmware ELF with its debug information costs the
 * memory of what is used. Fields are read through the bounded cursor in the file's own class
 * (32/64-bit) and byte order. Facts: the System V ABI's ELF header and section header layouts.
 * Used by --elf's readers: the user-event sites (.evt_user) and a symbol's value (_SEGGER_RTT). */
#ifndef EVT_HOST_ELF_FILE_H
#define EVT_HOST_ELF_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EVT_ELF_TABLE_MAX (16u << 20) /* the section header table: larger is damage */
#define EVT_ELF_SHT_SYMTAB 2u
#define EVT_ELF_SHT_NOBITS 8u
#define EVT_ELF_SHT_DYNSYM 11u

typedef struct evt_elf {
    FILE *f;
    const char *path;
    uint64_t len;          /* the file's size */
    int is64, big;         /* ELFCLASS64, ELFDATA2MSB */
    uint8_t *sh;           /* the section header table (shnum * shentsize bytes) */
    uint64_t shoff;
    uint16_t shnum, shentsize, shstrndx;
} evt_elf;

typedef struct evt_elf_sec {
    uint32_t name, type, link; /* name: offset in the section name table */
    uint64_t addr, off, size, entsize;
    uint64_t hoff;             /* the file offset of its header (for messages) */
} evt_elf_sec;

/* Open path (a regular file), read and check its ELF header and section header table. 0, or -1
 * with err = "PATH: what (byte N)" (nothing to close). */
int evt_elf_open(evt_elf *e, const char *path, char *err, size_t cap);
/* Section i's header (i < shnum). */
void evt_elf_sec_at(const evt_elf *e, unsigned i, evt_elf_sec *s);
/* Section s's contents in a new buffer (the caller frees with evt_free): NULL, with err, when
 * they lie outside the file, are larger than max bytes or cannot be read; what names them. */
uint8_t *evt_elf_read_sec(evt_elf *e, const evt_elf_sec *s, uint64_t max, const char *what, char *err, size_t cap);
void evt_elf_close(evt_elf *e);

/* err = "PATH: msg (byte off)"; returns -1. */
int evt_elf_err(const evt_elf *e, char *err, size_t cap, const char *msg, uint64_t off);

#endif

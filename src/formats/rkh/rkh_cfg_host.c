/* RKH configuration: template defaults, rkhcfg.h-style files, and the TCFG record. */
#include "formats/rkh/rkh_cfg_host.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/common/cursor.h"
#include "formats/rkh/rkh_defs.h"

void rkh_cfg_default(rkh_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->flags = 0x3FFFFu;
    c->sz_sig = 1; c->sz_ts = 4; c->sz_ptr = 4; c->sz_fun = 4;
    c->sz_ntimer = 1; c->sz_nblock = 1; c->sz_nelem = 1; c->sz_esize = 1; c->sz_bsize = 1;
}

/* Pointer sizes: 16 bits -> 2 bytes, anything else -> 4 (RKH's rule). */
static unsigned ptr_bytes(unsigned bits) { return bits == 16 ? 2 : 4; }
static unsigned int_bytes(unsigned bits) { return bits == 16 ? 2 : bits == 32 ? 4 : 1; }

static const struct { const char *name; unsigned bit; } k_flag_names[] = {
#define RKH_FLAG_NAME_(bit, name) {"RKH_CFG_" #name, bit},
    RKH_TCFG_FLAG_TABLE(RKH_FLAG_NAME_)
#undef RKH_FLAG_NAME_
};

static int parse_value(const char *v, unsigned long *out)
{
    char buf[64];
    size_t n = 0;
    for (; *v && n + 1 < sizeof buf; v++)
        if (*v != '(' && *v != ')' && !isspace((unsigned char)*v)) buf[n++] = *v;
    buf[n] = 0;
    if (strcmp(buf, "RKH_ENABLED") == 0) { *out = 1; return 0; }
    if (strcmp(buf, "RKH_DISABLED") == 0) { *out = 0; return 0; }
    char *end;
    *out = strtoul(buf, &end, 0);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') end++;
    return (end == buf || *end) ? -1 : 0;
}

/* The next line of f into line (cut to cap - 1 bytes, NUL-terminated), adding every byte read to
 * *bytes (NUL bytes too); 0 at the end of the file. */
static int read_line(FILE *f, char *line, size_t cap, uint64_t *bytes)
{
    size_t n = 0;
    int ch = EOF;
    while ((ch = getc(f)) != EOF) {
        ++*bytes;
        if (n + 1 < cap) line[n++] = (char)ch;
        if (ch == '\n' || *bytes > RKH_CFG_FILE_MAX) break;
    }
    line[n] = 0;
    return n > 0 || ch != EOF;
}

int rkh_cfg_load(rkh_cfg *c, const char *path, char *err, unsigned errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) { snprintf(err, errlen, "cannot open RKH config %s", path); return -1; }
    char line[512];
    unsigned lineno = 0, defines = 0;
    uint64_t bytes = 0;
    while (read_line(f, line, sizeof line, &bytes)) {
        lineno++;
        if (bytes > RKH_CFG_FILE_MAX) { /* /dev/zero, a wrong file: a configuration header is small */
            fclose(f);
            snprintf(err, errlen, "RKH config %s: more than %u bytes (line %u): not a configuration header", path,
                     (unsigned)RKH_CFG_FILE_MAX, lineno);
            return -1;
        }
        char name[128], val[128];
        if (sscanf(line, " # define %127s %127[^\n/]", name, val) != 2) continue;
        unsigned long v;
        if (strncmp(name, "RKH_CFG", 7) != 0) continue;
        defines++;
        if (parse_value(val, &v) != 0) continue; /* macros of other macros: not ours to evaluate */
        int known = 0;
        for (size_t i = 0; i < sizeof k_flag_names / sizeof k_flag_names[0]; i++)
            if (strcmp(name, k_flag_names[i].name) == 0) {
                if (v) c->flags |= 1u << k_flag_names[i].bit; else c->flags &= ~(1u << k_flag_names[i].bit);
                known = 1;
            }
        if (known) continue;
        if (strcmp(name, "RKH_CFG_FWK_SIZEOF_EVT") == 0) c->sz_sig = int_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFGPORT_TRC_SIZEOF_TSTAMP") == 0) c->sz_ts = int_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFGPORT_TRC_SIZEOF_PTR") == 0) c->sz_ptr = ptr_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFGPORT_TRC_SIZEOF_FUN_PTR") == 0) { c->sz_fun = ptr_bytes((unsigned)v); c->fun_from_file = 1; }
        else if (strcmp(name, "RKH_CFG_TMR_SIZEOF_NTIMER") == 0) c->sz_ntimer = int_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFG_MP_SIZEOF_NBLOCK") == 0) c->sz_nblock = int_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFG_QUE_SIZEOF_NELEM") == 0) c->sz_nelem = int_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFG_FWK_SIZEOF_EVT_SIZE") == 0) c->sz_esize = int_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFG_MP_SIZEOF_BSIZE") == 0) c->sz_bsize = int_bytes((unsigned)v);
        else if (strcmp(name, "RKH_CFG_FWK_MAX_EVT_POOL") == 0) c->max_pool = (unsigned)v;
    }
    int bad = ferror(f); /* a directory (EISDIR), an I/O error: not silently an empty config */
    fclose(f);
    if (bad) { snprintf(err, errlen, "cannot read RKH config %s", path); return -1; }
    if (!defines) {
        snprintf(err, errlen, "RKH config %s: no #define RKH_CFG... line in %u lines (expected rkhcfg.h-style defines)", path,
                 lineno);
        return -1;
    }
    return 0;
}

void rkh_cfg_from_tcfg_raw(rkh_cfg *c, const uint8_t *b)
{
    evt_cur k; /* the TCFG layout of rkh_defs.h, field by field */
    evt_cur_init(&k, b, RKH_TCFG_LEN, 0, 0);
    evt_cur_skip(&k, 1);                 /* id */
    c->version = evt_cur_u16le(&k);
    c->flags = evt_cur_u32le(&k);
    uint8_t v = evt_cur_u8(&k);          /* evt << 4 | tstamp */
    c->sz_sig = v >> 4;
    c->sz_ts = v & 15u;
    v = evt_cur_u8(&k);                  /* ptr << 4 | ntimer */
    c->sz_ptr = v >> 4;
    c->sz_ntimer = v & 15u;
    v = evt_cur_u8(&k);                  /* nblock << 4 | nelem */
    c->sz_nblock = v >> 4;
    c->sz_nelem = v & 15u;
    c->sz_esize = evt_cur_u8(&k);        /* evt size */
    v = evt_cur_u8(&k);                  /* bsize << 4 | max evt pools */
    c->sz_bsize = v >> 4;
    c->max_pool = v & 15u;
    c->ts_hz = evt_cur_u16le(&k);
}

void rkh_cfg_from_tcfg(rkh_cfg *c, const uint8_t *b)
{
    rkh_cfg_from_tcfg_raw(c, b);
    /* TCFG carries RKH_CFGPORT_TRC_SIZEOF_PTR / 8, but a SYM is 2 bytes for 16 and 4 for anything
     * else: a 64-bit port says 8 and sends 4-byte pointers (as ptr_bytes for a config file). */
    c->sz_ptr = ptr_bytes(8u * c->sz_ptr);
    if (!c->fun_from_file) c->sz_fun = c->sz_ptr;
}

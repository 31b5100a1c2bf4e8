/* RKH stream configuration on the host: from the TCFG record, from a user's rkhcfg.h-style file
 * (--rkh-config), or RKH's documented template defaults. */
#ifndef EVT_RKH_CFG_HOST_H
#define EVT_RKH_CFG_HOST_H

#include <stdint.h>

typedef struct rkh_cfg {
    uint16_t version;      /* RKH_VERSION_CODE (TCFG) or 0 */
    uint32_t flags;        /* TCFG flag bits (rkh_defs.h RKH_TCFG_FLAG_TABLE) */
    unsigned sz_sig;       /* bytes of a signal (SIZEOF_EVT) */
    unsigned sz_ts;        /* bytes of a timestamp */
    unsigned sz_ptr;       /* bytes of an object pointer */
    unsigned sz_fun;       /* bytes of a function pointer (not in TCFG) */
    unsigned sz_ntimer, sz_nblock, sz_nelem, sz_esize, sz_bsize; /* bytes */
    unsigned max_pool;     /* FWK_MAX_EVT_POOL */
    uint16_t ts_hz;        /* TCFG tick-rate field (u16-truncated) */
    int fun_from_file;     /* sz_fun was given by the config file */
} rkh_cfg;

/* Flag accessors. */
#define RKH_CFG_HAS(c, bit) (((c)->flags >> (bit)) & 1u)
enum { RKH_BIT_SNDR = 0, RKH_BIT_QUE_LWM = 11, RKH_BIT_MP_LWM = 12, RKH_BIT_NSEQ = 15,
       RKH_BIT_TSTAMP = 16, RKH_BIT_CHK = 17 };

/* RKH's template configuration (doc/rkhcfg.h, Linux port sizes): every flag on, 8-bit sizes,
 * 32-bit pointers and timestamps. */
void rkh_cfg_default(rkh_cfg *c);
#define RKH_CFG_FILE_MAX (4u << 20) /* bytes read from a config file at most */
/* Read "#define RKH_CFG_... value" / "#define RKH_CFGPORT_... value" lines over c. Returns 0, or -1
 * with a message in err: the file cannot be opened or read (a directory), is larger than
 * RKH_CFG_FILE_MAX (/dev/zero once read forever), or has no RKH_CFG define at all (a wrong file). */
int rkh_cfg_load(rkh_cfg *c, const char *path, char *err, unsigned errlen);
/* Apply a TCFG record body (14 unescaped bytes from the id on) over c; keeps sz_fun if it came
 * from a file, else sets it equal to the pointer size. */
void rkh_cfg_from_tcfg(rkh_cfg *c, const uint8_t *b);
/* The TCFG record's fields only (version, flags, the sizes as stored, ts_hz), nothing derived. */
void rkh_cfg_from_tcfg_raw(rkh_cfg *c, const uint8_t *b);

#endif

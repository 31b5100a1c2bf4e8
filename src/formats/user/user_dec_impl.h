/* User events, host side: the decoder's state (internal to user_dec.c and user_elf_host.c). */
#ifndef EVT_FORMATS_USER_DEC_IMPL_H
#define EVT_FORMATS_USER_DEC_IMPL_H

#include <stdint.h>
#include "formats/user/user_fmt.h"
#include "host/u64map.h"

#define EVT_USER_DEC_MAX_WORDS 4096u /* words of one record decoded (TXTB: at most 1023) */

typedef struct evt_user_site {
    uint64_t addr;       /* the site's address (file address for ELF sites) */
    uint32_t sig;
    uint8_t kind;
    uint8_t from_elf;
    uint8_t text_cut;    /* the SITE record carried only the start of the text */
    char *channel, *text;
} evt_user_site;

struct evt_user_dec {
    evt_user_site *sites;
    uint32_t nsites, cap;
    evt_u64map by_addr;          /* low 32 bits of the address -> index */
    uint64_t reloc;              /* run-time address - ELF address (ANCHOR record, ELF anchor) */
    uint64_t run_anchor, elf_anchor;
    int have_run_anchor, have_elf_anchor;
    evt_user_text text, aux;     /* the event's text; a state name */
    uint8_t *strbuf;             /* unpacked strings of one record */
    evt_user_arg args[EVT_USER_MAX_ARGS];
    char diag[512];
};

/* Add or replace a site (an ELF site is not replaced by a SITE record). 0, or -1: no memory. */
int evt_user_dec_add_site(evt_user_dec *d, uint64_t addr, unsigned kind, uint32_t sig, const char *ch, size_t chl,
                          const char *tx, size_t txl, int from_elf);

static inline int is_value_tag(unsigned t) { return t >= EVT_USER_T_I32 && t <= EVT_USER_T_U64; }

#endif

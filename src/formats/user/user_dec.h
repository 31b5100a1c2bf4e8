/* User events, host side: the decoder every reader whose format carries evtrace/user.h records
 * calls with a record's words (TXTB slots, XRay typed events). It keeps the sites the trace
 * registered (SITE records) or an ELF file holds (--elf), and turns a CALL record into an event:
 * kind user, name and label = the channel, the printf text formatted as C's printf would (ev->data
 * and m.text), a value, an interval end, or a state-machine state in the meaning block. A record it
 * cannot format (unknown site, bad format, record cut short) gets its raw arguments as text and a
 * diagnostic with the byte offset. */
#ifndef EVT_FORMATS_USER_DEC_H
#define EVT_FORMATS_USER_DEC_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/model.h"

typedef struct evt_user_dec evt_user_dec;

evt_user_dec *evt_user_dec_new(void); /* NULL when out of memory */
void evt_user_dec_free(evt_user_dec *d);

/* Read the sites of section .evt_user of an ELF file (32/64-bit, either byte order). Returns 0,
 * or -1 with a message in err. */
int evt_user_dec_load_elf(evt_user_dec *d, const char *path, char *err, size_t errcap);

/* Decode one record of type rec (evt_user_rec) whose words are w[0..n), found at byte `offset`
 * of the source (each word's offset is offset + 4 * index when `word_off` is NULL, else
 * word_off[i]). Fills ev (whose ts, ctx etc. the reader set) and returns NULL, or a diagnostic
 * (owned by d, valid until the next call) with *diag_off set to the byte it concerns. Strings
 * are owned by d until its next call. */
const char *evt_user_dec_record(evt_user_dec *d, unsigned rec, const uint32_t *w, uint32_t n, uint64_t offset,
                                evt_event *ev, uint64_t *diag_off);

/* 1 when a CALL record's site word names a site d knows (registered in the trace, or from the ELF
 * file relocated by the ANCHOR record). */
int evt_user_dec_site_known(const evt_user_dec *d, uint32_t site);

/* Whether a record whose type is rec, whose first words are w[0..have) and whose declared length
 * is n words reads as an evtrace/user.h record, for carriers whose ids an application may use for
 * its own events (TXTB user ids): a SITE record with a known kind and strings that fit, an ANCHOR
 * of 2 words, a CALL once the trace has registered a site or an ELF file gave sites. */
int evt_user_dec_claims(const evt_user_dec *d, unsigned rec, const uint32_t *w, uint32_t have, uint32_t n);

/* The options a reader declares for it (evt_reader_option "elf"). */
#define EVT_USER_ELF_OPTION_HELP "firmware ELF file holding the user-event sites (section .evt_user)"

#endif

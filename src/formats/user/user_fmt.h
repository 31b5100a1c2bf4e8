/* User events, host side: the recorded arguments of a CALL record (evtrace/user_defs.h) and the
 * printf formatter over them, which gives the text C's printf gives for the same format and
 * arguments (each conversion is handed to the C library's snprintf with the recorded value cast to
 * the type its length modifier names). Never reads past the words or the format it is given. */
#ifndef EVT_FORMATS_USER_FMT_H
#define EVT_FORMATS_USER_FMT_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/user_defs.h"

/* A growing text buffer (evt_malloc; at most EVT_USER_TEXT_MAX bytes are kept, the rest dropped
 * and `cut` set). p is NUL-terminated once anything was appended. */
#define EVT_USER_TEXT_MAX (1u << 20)
typedef struct evt_user_text {
    char *p;
    size_t len, cap;
    int cut;     /* text longer than EVT_USER_TEXT_MAX (or allocation failed): the end is missing */
} evt_user_text;
void evt_user_text_reset(evt_user_text *t);   /* empty it (keeps the memory) */
void evt_user_text_free(evt_user_text *t);
void evt_user_text_add(evt_user_text *t, const char *s, size_t n);
void evt_user_text_printf(evt_user_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *evt_user_text_str(const evt_user_text *t); /* "" when empty */

/* One recorded argument. */
typedef struct evt_user_arg {
    uint8_t tag;          /* evt_user_tag */
    uint8_t str_cut;      /* STR: cut to the recorder's EVT_CFG_USER_STR_MAX */
    uint8_t str_null;     /* STR: the pointer was NULL */
    uint64_t u;           /* integers and pointers (I32 sign-extended), F64/LDBL bits */
    const uint8_t *s;     /* STR: bytes (not NUL-terminated; in the caller's copy) */
    uint32_t slen;
    uint32_t word;        /* index of its first word in the record */
} evt_user_arg;

/* Split a CALL record's argument words w[0..n) (after the site word) as signature sig says.
 * Strings are unpacked into strbuf (at least 4 * n bytes), which a[].s then points into. Returns
 * the arguments read; *bad is set to the word index where the record is cut short or carries an
 * unknown tag (UINT32_MAX when whole). */
uint32_t evt_user_args_parse(uint32_t sig, const uint32_t *w, uint32_t n, evt_user_arg *a, uint8_t *strbuf,
                             uint32_t *bad);

/* Format fmt[0..fmt_len) (need not be NUL-terminated) with the arguments into out. Returns 0, or
 * -1 with diag (a message, NUL-terminated, at most dcap bytes) and *at = the byte of the format
 * where it failed: an unknown or unsupported conversion (%ls, %lc, positional %1$d), a conversion
 * whose recorded argument is missing or of another kind (%s with an integer, %f with a pointer),
 * a width or precision over 65536. out then holds what was formatted before it. */
int evt_user_format(evt_user_text *out, const char *fmt, size_t fmt_len, const evt_user_arg *a, uint32_t na,
                    char *diag, size_t dcap, size_t *at);

/* The arguments as raw text: 5, -1, 0x1000, 2.5, "abc"..., for records that cannot be formatted. */
void evt_user_args_raw(evt_user_text *out, const evt_user_arg *a, uint32_t na);
/* Public name of a tag ("i32", "str"), "?" when unknown. */
const char *evt_user_tag_name(unsigned tag);

#endif

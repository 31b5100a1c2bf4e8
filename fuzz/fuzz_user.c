/* libFuzzer target of the user-event decoder and printf formatter (src/formats/user/): byte 0
 * selects the mode.
 *  even: a stream of records [type u8][words u8 n][n x u32 LE], fed in order to
 *        evt_user_dec_record (SITE records define the sites later CALLs name). Checked: the text
 *        is NUL-terminated at its length, a diagnostic's offset lies inside its record, the
 *        label of an event is its site's channel.
 *  odd:  the formatter alone: bytes 1..4 the signature, 5..6 (u16 LE) the format length, then
 *        the format (not NUL-terminated, in a heap block of exactly that size: a read past it is
 *        an ASan report), then the argument words. Checked: a failure's byte lies in the format;
 *        the text is NUL-terminated at its length. */
#include <stdlib.h>
#include <string.h>
#include "fuzz_common.h"
#include "evtrace/model.h"
#include "formats/user/user_dec.h"
#include "formats/user/user_fmt.h"

static void check_text(const char *s, size_t len)
{
    if (s && s[len] != '\0') abort();
}

static void records(const uint8_t *d, size_t n)
{
    evt_user_dec *u = evt_user_dec_new();
    if (!u) return;
    uint32_t *w = malloc(256 * sizeof *w);
    size_t at = 0;
    while (w && at + 2 <= n) {
        unsigned rec = d[at] % 4u;
        uint32_t nw = d[at + 1];
        at += 2;
        if ((size_t)nw * 4 > n - at) nw = (uint32_t)((n - at) / 4);
        for (uint32_t i = 0; i < nw; i++)
            w[i] = (uint32_t)d[at + 4 * i] | (uint32_t)d[at + 4 * i + 1] << 8 | (uint32_t)d[at + 4 * i + 2] << 16 |
                   (uint32_t)d[at + 4 * i + 3] << 24;
        uint64_t off = at, doff = 0;
        evt_event ev;
        evt_event_reset(&ev);
        (void)evt_user_dec_claims(u, rec, w, nw, nw);
        const char *diag = evt_user_dec_record(u, rec, w, nw, off, &ev, &doff);
        if (diag && (doff < off || doff > off + 4u * (uint64_t)nw + 4u)) abort();
        if (ev.data_is_text) check_text((const char *)ev.data, ev.data_len);
        if ((ev.m.has & EVT_M_TEXT) && !ev.m.text) abort();
        if ((ev.m.has & EVT_M_LABEL) && (!ev.m.label || strcmp(ev.m.label, ev.name) != 0)) abort();
        at += (size_t)nw * 4;
    }
    free(w);
    evt_user_dec_free(u);
}

static void formatter(const uint8_t *d, size_t n)
{
    if (n < 7) return;
    uint32_t sig = (uint32_t)d[1] | (uint32_t)d[2] << 8 | (uint32_t)d[3] << 16 | (uint32_t)d[4] << 24;
    size_t flen = (size_t)d[5] | (size_t)d[6] << 8;
    if (flen > n - 7) flen = n - 7;
    char *fmt = malloc(flen ? flen : 1);
    if (!fmt) return;
    memcpy(fmt, d + 7, flen);
    size_t rest = n - 7 - flen, nw = rest / 4;
    uint32_t *w = malloc((nw ? nw : 1) * sizeof *w);
    uint8_t *sb = malloc(4 * nw + 4);
    if (w && sb) {
        for (size_t i = 0; i < nw; i++) memcpy(&w[i], d + 7 + flen + 4 * i, 4);
        evt_user_arg a[EVT_USER_MAX_ARGS];
        uint32_t bad;
        uint32_t na = evt_user_args_parse(sig, w, (uint32_t)nw, a, sb, &bad);
        if (na > EVT_USER_MAX_ARGS || (bad != UINT32_MAX && bad > nw)) abort();
        evt_user_text t = {0};
        char diag[128];
        size_t pos = 0;
        if (evt_user_format(&t, fmt, flen, a, na, diag, sizeof diag, &pos) != 0 && pos > flen) abort();
        check_text(t.p, t.len);
        evt_user_text_reset(&t);
        evt_user_args_raw(&t, a, na);
        check_text(t.p, t.len);
        evt_user_text_free(&t);
    }
    free(sb);
    free(w);
    free(fmt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (data[0] & 1u) formatter(data, size);
    else records(data + 1, size - 1);
    return 0;
}

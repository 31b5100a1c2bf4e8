/* User events, target side: the carrier-neutral encoder of evtrace/user.h records (layout:
 * evtrace/user_defs.h). Builds a record's words in the caller's buffer; the carriers
 * (txtb_user_enc.c, xray_user_enc.c) write them. Nothing is formatted here: arguments are copied
 * as the site's signature says (strings up to EVT_CFG_USER_STR_MAX bytes). Freestanding C99. */
#include "formats/user/user_enc.h"

uint32_t evt_user_gen_ = 1u;
uint32_t evt_user_anchor_gen_;

/* The anchor: its run-time address in the ANCHOR record, its file address found by the host in
 * section .evt_user by its contents (the magic, then "EVTUANCHOR"). Always in that section (28
 * bytes), so a library built once serves programs of either mode. */
#if defined(__GNUC__) || defined(__clang__)
static const struct {
    evt_user_site_hdr h;
    char ch[11];
    char tx[1];
} evt_user_anchor_ __attribute__((section(".evt_user"), used, aligned(4))) = {{EVT_USER_SITE_MAGIC, 0u, 11u, 1u, 0u, 0u, {0, 0}}, "EVTUANCHOR", ""};
#else
static const char evt_user_anchor_ = 0;
#endif

void evt_user_resend(void)
{
    uint32_t g = EVT_LOAD_RLX(&evt_user_gen_) + 1u;
    EVT_STORE_RLX(&evt_user_gen_, g ? g : 1u);
}

/* Pack n bytes of s into words from w[0], first byte lowest; returns the words written. */
static uint32_t pack_bytes(uint32_t *w, const char *s, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i += 4u, k++) {
        uint32_t v = 0;
        for (uint32_t j = 0; j < 4u && i + j < n; j++) v |= (uint32_t)(uint8_t)s[i + j] << (8u * j);
        w[k] = v;
    }
    return k;
}

static uint32_t put_u64(uint32_t *w, uint64_t v)
{
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
    return 2u;
}

static uint32_t put_str(uint32_t *w, const char *s)
{
    if (!s) {
        w[0] = EVT_USER_STR_NULL;
        return 1u;
    }
    uint32_t n = 0;
    while (n < (uint32_t)EVT_CFG_USER_STR_MAX && s[n] != '\0') n++;
    w[0] = n | (s[n] != '\0' ? EVT_USER_STR_CUT : 0u);
    return 1u + pack_bytes(w + 1, s, n);
}

uint32_t evt_user_encode_call_(const evt_user_site_hdr *site, uint32_t *w, va_list ap)
{
    uint32_t n = 0, sig = site->sig;
    w[n++] = (uint32_t)(uintptr_t)site;
    for (unsigned k = 0; k < EVT_USER_MAX_ARGS; k++, sig >>= EVT_USER_TAG_BITS) {
        union { double d; uint64_t u; } f;
        switch (sig & 0xFu) {
        case EVT_USER_T_I32: w[n++] = (uint32_t)va_arg(ap, int); break;
        case EVT_USER_T_U32: w[n++] = va_arg(ap, unsigned int); break;
        case EVT_USER_T_I64: n += put_u64(w + n, (uint64_t)va_arg(ap, long long)); break;
        case EVT_USER_T_U64: n += put_u64(w + n, va_arg(ap, unsigned long long)); break;
        case EVT_USER_T_F64: f.d = va_arg(ap, double); n += put_u64(w + n, f.u); break;
        case EVT_USER_T_LDBL: f.d = (double)va_arg(ap, long double); n += put_u64(w + n, f.u); break;
        case EVT_USER_T_PTR32: w[n++] = (uint32_t)(uintptr_t)va_arg(ap, void *); break;
        case EVT_USER_T_PTR64: n += put_u64(w + n, (uint64_t)(uintptr_t)va_arg(ap, void *)); break;
        case EVT_USER_T_STR: n += put_str(w + n, va_arg(ap, const char *)); break;
        default: return n; /* END (or a tag this encoder does not know: the list ends) */
        }
    }
    return n;
}

uint32_t evt_user_encode_site_(const evt_user_site_hdr *site, uint32_t *w)
{
    const char *ch = (const char *)site + EVT_USER_SITE_HDR_SIZE;
    uint32_t chl = site->ch_len, txl = site->text_len, room = (uint32_t)EVT_CFG_USER_SITE_MAX;
    if (chl > room) chl = room;
    if (txl > room - chl) txl = room - chl;
    w[0] = (uint32_t)(uintptr_t)site;
    w[1] = site->sig;
    w[2] = EVT_USER_SITE_W2(site->kind, chl, txl);
    /* channel and text are adjacent in the site (char arrays): one run of bytes; a cut text loses
     * its end (and NUL): the decoder reads the lengths */
    return 3u + pack_bytes(w + 3, ch, chl + txl);
}

uint32_t evt_user_encode_anchor_(uint32_t *w)
{
    uint64_t a = (uint64_t)(uintptr_t)&evt_user_anchor_;
    return put_u64(w, a);
}

int evt_user_register_(const evt_user_site_hdr *site, uint32_t *sent,
                       int (*write)(unsigned rec, const uint32_t *w, uint32_t n))
{
    uint32_t g = EVT_LOAD_RLX(&evt_user_gen_);
    if (!sent) {
        uint32_t w[2];
        uint32_t n = evt_user_encode_anchor_(w);
        int r = write(EVT_USER_R_ANCHOR, w, n);
        if (!r) return 0;
        if (r == 1) EVT_STORE_RLX(&evt_user_anchor_gen_, g); /* 2: stashed, as below */
        return 1;
    }
    uint32_t w[EVT_USER_SITE_WORDS_];
    uint32_t n = evt_user_encode_site_(site, w);
    /* Two contexts may both send it: a duplicate SITE record is harmless. Marked sent only once
     * written, so a dropped SITE record is tried again at the next call. */
    int r = write(EVT_USER_R_SITE, w, n);
    if (!r) return 0;
    /* 2: stashed behind an interrupted record of this thread (user_nest_enc.c), written later:
     * not marked, so another context's CALL is not written before its site (it sends its own). */
    if (r == 1) EVT_STORE_RLX(sent, g);
    return 1;
}

/* User events, host side: the site table and the record decoder (user_dec.h); ELF sites in
 * user_elf_host.c. */
#include "formats/user/user_dec.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/user_defs.h"
#include "formats/user/user_dec_impl.h"
#include "formats/user/user_fmt.h"

static const char *const k_kind_names[] = {
#define KIND_NAME_(n, v, s) [v] = s,
    EVT_USER_KIND_TABLE(KIND_NAME_)
#undef KIND_NAME_
};

evt_user_dec *evt_user_dec_new(void) { return evt_calloc(1, sizeof(evt_user_dec)); }

void evt_user_dec_free(evt_user_dec *d)
{
    if (!d) return;
    for (uint32_t i = 0; i < d->nsites; i++) {
        evt_free(d->sites[i].channel);
        evt_free(d->sites[i].text);
    }
    evt_free(d->sites);
    evt_u64map_free(&d->by_addr);
    evt_user_text_free(&d->text);
    evt_user_text_free(&d->aux);
    evt_free(d->strbuf);
    evt_free(d);
}

static char *dup_n(const char *s, size_t n)
{
    char *p = evt_malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

int evt_user_dec_add_site(evt_user_dec *d, uint64_t addr, unsigned kind, uint32_t sig, const char *ch, size_t chl,
                          const char *tx, size_t txl, int from_elf)
{
    uint32_t idx;
    evt_user_site *s;
    if (evt_u64map_get(&d->by_addr, addr, &idx)) {
        s = &d->sites[idx];
        if (s->from_elf && !from_elf) return 0; /* the ELF file wins */
        evt_free(s->channel);
        evt_free(s->text);
    } else {
        if (d->nsites == d->cap) {
            uint32_t cap = d->cap ? d->cap * 2 : 64;
            evt_user_site *p = evt_realloc(d->sites, cap * sizeof *p);
            if (!p) return -1;
            d->sites = p;
            d->cap = cap;
        }
        idx = d->nsites;
        if (!evt_u64map_put(&d->by_addr, addr, idx)) return -1;
        d->nsites++;
        s = &d->sites[idx];
    }
    memset(s, 0, sizeof *s);
    s->addr = addr;
    s->kind = (uint8_t)kind;
    s->sig = sig;
    s->from_elf = (uint8_t)from_elf;
    s->channel = dup_n(ch, strnlen(ch, chl));
    s->text = dup_n(tx, strnlen(tx, txl));
    s->text_cut = memchr(tx, '\0', txl) == NULL;
    if (!s->channel || !s->text) return -1;
    return 0;
}

/* The site a record names: a registered one at its run-time address, else an ELF one at the
 * address less the relocation the ANCHOR record gave. */
static const evt_user_site *find_site(const evt_user_dec *d, uint32_t ref)
{
    uint32_t idx;
    if (evt_u64map_get(&d->by_addr, ref, &idx) && !d->sites[idx].from_elf) return &d->sites[idx];
    if (evt_u64map_get(&d->by_addr, (uint32_t)(ref - (uint32_t)d->reloc), &idx) && d->sites[idx].from_elf)
        return &d->sites[idx];
    return NULL;
}

static const char *diag_at(evt_user_dec *d, uint64_t *diag_off, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int evt_user_dec_site_known(const evt_user_dec *d, uint32_t site) { return find_site(d, site) != NULL; }

static const char *diag_at(evt_user_dec *d, uint64_t *diag_off, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->diag, sizeof d->diag, fmt, ap);
    va_end(ap);
    *diag_off = off;
    return d->diag;
}

/* Unpack the SITE record's strings (bytes after word 3). */
static const char *decode_site(evt_user_dec *d, const uint32_t *w, uint32_t n, uint64_t offset, evt_event *ev,
                               uint64_t *diag_off)
{
    ev->kind = EVT_KIND_MARKER;
    ev->name = "USER_SITE";
    if (n < 3) return diag_at(d, diag_off, offset, "user SITE record of %" PRIu32 " words is cut short", n);
    uint32_t kind = w[2] & 0xFFu, chl = (w[2] >> 8) & 0xFFFu, txl = (w[2] >> 20) & 0xFFFu;
    size_t have = (size_t)(n - 3) * 4u;
    if ((size_t)chl + txl > have)
        return diag_at(d, diag_off, offset + 12, "user SITE record: strings of %" PRIu32 " bytes, record holds %zu",
                       chl + txl, have);
    char *b = (char *)d->strbuf;
    if (!b) return diag_at(d, diag_off, offset, "out of memory");
    for (size_t i = 0; i < (size_t)chl + txl; i++) b[i] = (char)(w[3 + i / 4] >> (8 * (i % 4)));
    if (evt_user_dec_add_site(d, w[0], kind, w[1], b, chl, b + chl, txl, 0) != 0)
        return diag_at(d, diag_off, offset, "out of memory");
    const evt_user_site *s = find_site(d, w[0]);
    evt_event_add_arg(ev, w[0]);
    if (s) {
        evt_event_add_field_u(ev, "site", w[0]);
        evt_event_add_field_s(ev, "channel", s->channel);
        evt_event_add_field_s(ev, "site_text", s->text);
        if (kind < EVT_USER_K_COUNT_ && k_kind_names[kind]) evt_event_add_field_s(ev, "user_kind", k_kind_names[kind]);
    }
    return NULL;
}

/* The i-th comma-separated name of list into d->aux ("" when there is none). */
static const char *state_name(evt_user_dec *d, const char *list, uint64_t i)
{
    evt_user_text_reset(&d->aux);
    const char *p = list;
    for (uint64_t k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p) p++;
    }
    if (!p) return NULL;
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    while (n && *p == ' ') { p++; n--; }
    evt_user_text_add(&d->aux, p, n);
    return evt_user_text_str(&d->aux);
}

static const char *decode_call(evt_user_dec *d, const uint32_t *w, uint32_t n, uint64_t offset, evt_event *ev,
                               uint64_t *diag_off)
{
    ev->kind = EVT_KIND_USER;
    ev->name = "user";
    evt_user_text_reset(&d->text);
    if (n < 1) return diag_at(d, diag_off, offset, "user record without a site word");
    const evt_user_site *s = find_site(d, w[0]);
    uint32_t sig = s ? s->sig : 0;
    uint32_t bad = UINT32_MAX, na = 0;
    if (s) na = evt_user_args_parse(sig, w + 1, n - 1, d->args, d->strbuf, &bad);
    for (uint32_t k = 0; k < na; k++) evt_event_add_arg(ev, d->args[k].u);
    if (!s) {
        /* raw words: the site is not known (no SITE record in the trace, no --elf) */
        evt_user_text_printf(&d->text, "<site 0x%08" PRIx32 ">", w[0]);
        for (uint32_t i = 1; i < n; i++) {
            evt_user_text_printf(&d->text, " 0x%" PRIx32, w[i]);
            evt_event_add_arg(ev, w[i]);
        }
        ev->data = (const uint8_t *)evt_user_text_str(&d->text);
        ev->data_len = d->text.len;
        ev->data_is_text = 1;
        ev->m.has |= EVT_M_TEXT;
        ev->m.text = evt_user_text_str(&d->text);
        evt_event_add_field_u(ev, "site", w[0]);
        return diag_at(d, diag_off, offset,
                       "user event of site 0x%08" PRIx32 ": no SITE record for it in the trace and no --elf file naming it",
                       w[0]);
    }
    ev->name = s->channel;
    ev->m.has |= EVT_M_LABEL;
    ev->m.label = s->channel;
    evt_event_add_field_s(ev, "channel", s->channel);
    if (s->kind < EVT_USER_K_COUNT_ && k_kind_names[s->kind]) evt_event_add_field_s(ev, "user_kind", k_kind_names[s->kind]);
    const char *diag = NULL;
    if (bad != UINT32_MAX)
        diag = diag_at(d, diag_off, offset + 4u * (1u + bad),
                       "user event '%s': argument record cut short or bad at word %" PRIu32 " of %" PRIu32,
                       s->channel, bad + 1, n);
    switch (s->kind) {
    case EVT_USER_K_PRINTF: {
        size_t at = 0;
        char fd[160];
        if (!diag && evt_user_format(&d->text, s->text, strlen(s->text), d->args, na, fd, sizeof fd, &at) != 0) {
            uint32_t first = na ? d->args[0].word : 0;
            diag = diag_at(d, diag_off, offset + 4u * (1u + first), "user event '%s': format \"%s\" byte %zu: %s",
                           s->channel, s->text, at, fd);
        }
        if (diag) {
            evt_user_text_reset(&d->text);
            evt_user_text_printf(&d->text, "<raw> \"%s\" (", s->text);
            evt_user_args_raw(&d->text, d->args, na);
            evt_user_text_add(&d->text, ")", 1);
        }
        for (uint32_t k = 0; k < na; k++)
            if (d->args[k].str_cut) evt_event_add_field_u(ev, "str_cut", k + 1);
        ev->data = (const uint8_t *)evt_user_text_str(&d->text);
        ev->data_len = d->text.len;
        ev->data_is_text = 1;
        ev->m.has |= EVT_M_TEXT;
        ev->m.text = evt_user_text_str(&d->text);
        break;
    }
    case EVT_USER_K_VALUE:
        if (na >= 1 && is_value_tag(d->args[0].tag)) {
            ev->m.has |= EVT_M_VALUE;
            ev->m.value = (int64_t)d->args[0].u;
            evt_event_add_field_i(ev, "value", ev->m.value);
        }
        break;
    case EVT_USER_K_IBEGIN:
    case EVT_USER_K_IEND:
        if (na >= 1) {
            ev->m.has |= EVT_M_INTERVAL;
            ev->m.interval_id = d->args[0].u;
            ev->m.interval_end = s->kind == EVT_USER_K_IEND;
            evt_event_add_field_u(ev, "interval_id", d->args[0].u);
            evt_event_add_field_s(ev, "interval", ev->m.interval_end ? "end" : "begin");
        }
        break;
    case EVT_USER_K_STATE:
        if (na >= 1) {
            ev->m.has |= EVT_M_SM_STATE;
            ev->m.obj = s->addr;
            ev->m.obj_name = s->channel;
            ev->m.sm_state_id = d->args[0].u;
            ev->m.sm_state = state_name(d, s->text, d->args[0].u);
            evt_event_add_field_u(ev, "state_id", d->args[0].u);
            if (ev->m.sm_state) evt_event_add_field_s(ev, "state", ev->m.sm_state);
        }
        break;
    default:
        if (!diag) diag = diag_at(d, diag_off, offset, "user event '%s': unknown site kind %u", s->channel, s->kind);
        break;
    }
    return diag;
}

int evt_user_dec_claims(const evt_user_dec *d, unsigned rec, const uint32_t *w, uint32_t have, uint32_t n)
{
    switch (rec) {
    case EVT_USER_R_SITE: {
        if (n < 3 || have < 3) return 0;
        uint32_t kind = w[2] & 0xFFu, chl = (w[2] >> 8) & 0xFFFu, txl = (w[2] >> 20) & 0xFFFu;
        /* the strings fill exactly the words after the third */
        return kind >= 1 && kind < EVT_USER_K_COUNT_ && chl >= 1 && txl >= 1 && (chl + txl + 3u) / 4u == n - 3u;
    }
    case EVT_USER_R_ANCHOR: return n == 2;
    case EVT_USER_R_CALL: return n >= 1 && d->nsites > 0;
    default: return 0;
    }
}

const char *evt_user_dec_record(evt_user_dec *d, unsigned rec, const uint32_t *w, uint32_t n, uint64_t offset,
                                evt_event *ev, uint64_t *diag_off)
{
    if (n > EVT_USER_DEC_MAX_WORDS) n = EVT_USER_DEC_MAX_WORDS;
    if (!d->strbuf) {
        d->strbuf = evt_malloc(4u * EVT_USER_DEC_MAX_WORDS + 4u);
        if (!d->strbuf) return diag_at(d, diag_off, offset, "out of memory");
    }
    switch (rec) {
    case EVT_USER_R_CALL: return decode_call(d, w, n, offset, ev, diag_off);
    case EVT_USER_R_SITE: return decode_site(d, w, n, offset, ev, diag_off);
    case EVT_USER_R_ANCHOR:
        ev->kind = EVT_KIND_MARKER;
        ev->name = "USER_ANCHOR";
        if (n < 2) return diag_at(d, diag_off, offset, "user ANCHOR record cut short");
        d->run_anchor = (uint64_t)w[0] | (uint64_t)w[1] << 32;
        d->have_run_anchor = 1;
        if (d->have_elf_anchor) d->reloc = d->run_anchor - d->elf_anchor;
        evt_event_add_arg(ev, d->run_anchor);
        return NULL;
    default:
        ev->kind = EVT_KIND_OTHER;
        ev->name = "USER_RECORD";
        return diag_at(d, diag_off, offset, "user record of unknown type %u", rec);
    }
}

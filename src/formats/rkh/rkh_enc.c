/* RKH trace recorder (target side). Freestanding C99: no libc, no malloc.
 *
 * Invariants
 *  R1 The ring holds whole stuffed records, each followed by one raw 0x7E, after one initial 0x7E;
 *     a raw 0x7E in the ring is always a record boundary (stuffing turns data 0x7E into 7D 5E).
 *  R2 When the ring is full, a new byte overwrites the oldest one; if that byte was a flag, the
 *     record after it has lost its start: lost_pending and lost_total count one record (data
 *     records only: not TCFG, not loss records). The loss record is written before the first record
 *     that begins while the ring has room for it (after the host drained it). After a drain that ends on a flag, the oldest
 *     byte starts a record whose flag is gone (head_is_start): overwriting it loses that record;
 *     after a drain that stopped inside a record (head_partial), overwriting the rest loses it too. The loss record carries the running total, so a
 *     loss record that is itself overwritten loses no information. The next
 *     record that passes the filters is preceded by one loss record (EVT_RKH_TE_LOST), so losses
 *     reach the stream; with sequence numbers on, the decoder's gap count equals lost_total.
 *  R3 begin..end run inside the port's critical section; a filtered record touches nothing (no
 *     clock read, no sequence number, no ring byte), as in RKH.
 *  R4 The checksum covers every unescaped byte from the id to the last argument; the byte written is
 *     (0 - sum) mod 256, stuffed like any other. */
#include "evtrace/rkh.h"

#include "evtrace/port.h"
#include "formats/rkh/rkh_defs.h"

/* ---- ring ------------------------------------------------------------------------------------ */

/* Records that carry a sequence number (what the loss count counts). */
static int is_data_id(uint8_t id) { return id != RKH_FLAG && id != RKH_TE_TCFG && id != EVT_RKH_TE_LOST; }

static void ring_put(evt_rkh_recorder *r, uint8_t b)
{
    if (r->qty == r->size) {
        /* The oldest byte is overwritten. A record is lost when the flag before it goes, or, if
         * the ring was drained up to a record boundary, when its first byte goes (its flag left
         * with the drain). TCFG and loss records carry no sequence number and are not counted:
         * the count is of data records, as the decoder's gaps. */
        uint8_t old = r->ring[r->in];
        uint32_t lost = 0;
        if (r->head_partial) lost++;                                 /* a drained head's rest */
        else if (r->head_is_start && is_data_id(old)) lost++;        /* a record whose flag left */
        if (old == RKH_FLAG && r->size > 1 && is_data_id(r->ring[r->in + 1u == r->size ? 0u : r->in + 1u]))
            lost++;                                                  /* the record after the flag */
        r->lost_pending += lost;
        r->lost_total += lost;
        r->head_is_start = 0;
        r->head_partial = 0;
        r->ring[r->in] = b;
        r->in = (r->in + 1u == r->size) ? 0u : r->in + 1u;
        r->out = r->in;
        return;
    }
    r->ring[r->in] = b;
    r->in = (r->in + 1u == r->size) ? 0u : r->in + 1u;
    r->qty++;
}

/* One record byte: checksum of the unescaped value, then stuffed. */
static inline void put_u8(evt_rkh_recorder *r, uint8_t b)
{
    r->chk = (uint8_t)(r->chk + b);
    if (r->size - r->qty >= 2u) {
        /* Fast path: room for the byte and its escape, nothing is overwritten. */
        uint32_t in = r->in;
        if (b == RKH_FLAG || b == RKH_ESC) {
            r->ring[in] = RKH_ESC;
            in = (in + 1u == r->size) ? 0u : in + 1u;
            b = (uint8_t)(b ^ RKH_ESC_XOR);
            r->qty++;
        }
        r->ring[in] = b;
        r->in = (in + 1u == r->size) ? 0u : in + 1u;
        r->qty++;
        return;
    }
    if (b == RKH_FLAG || b == RKH_ESC) {
        ring_put(r, RKH_ESC);
        ring_put(r, (uint8_t)(b ^ RKH_ESC_XOR));
    } else {
        ring_put(r, b);
    }
}

static void put_n(evt_rkh_recorder *r, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) { put_u8(r, (uint8_t)v); v >>= 8; }
}

static void close_record(evt_rkh_recorder *r)
{
    if (r->cfg.flags & EVT_RKH_F_TRC_CHK_EN) {
        uint8_t c = (uint8_t)(0u - r->chk);
        put_u8(r, c);
    }
    ring_put(r, RKH_FLAG);
    r->written++;
}

static void drain_to_sink(evt_rkh_recorder *r)
{
    if (!r->sink) return;
    while (r->qty) {
        uint32_t n = r->qty;
        const uint8_t *p = evt_rkh_get_block(r, &n);
        r->sink(r->sink_user, p, n);
    }
}

/* ---- configuration and init -------------------------------------------------------------------- */

void evt_rkh_config_default(evt_rkh_config *c)
{
    c->flags = 0x3FFFFu;
    c->version = 0x3400u;
    c->sz_sig = 1; c->sz_ts = 4; c->sz_ptr = 4; c->sz_fun = 4; c->sz_ntimer = 1;
    c->sz_nblock = 1; c->sz_nelem = 1; c->sz_esize = 1; c->sz_bsize = 1; c->max_pool = 0;
}

static void fill(uint8_t *p, unsigned n, uint8_t v)
{
    for (unsigned i = 0; i < n; i++) p[i] = v;
}

void evt_rkh_filter_all(evt_rkh_recorder *r, int emit)
{
    uint8_t v = emit ? 0xFFu : 0u;
    r->grp_filter = v;
    fill(r->ev_filter, sizeof r->ev_filter, v);
    fill(r->ao_filter, sizeof r->ao_filter, v);
    fill(r->sig_filter, sizeof r->sig_filter, v);
}

void evt_rkh_init(evt_rkh_recorder *r, const evt_rkh_config *cfg, uint8_t *ring, uint32_t ring_size,
                  evt_rkh_ts_fn ts, uint32_t ts_hz)
{
    r->cfg = *cfg;
    r->ring = ring;
    r->size = ring_size;
    r->in = r->out = r->qty = 0;
    r->head_is_start = 0;
    r->head_partial = 0;
    r->seq = 0;
    r->chk = 0;
    r->open = 0;
    r->ts = ts;
    r->sink = 0;
    r->sink_user = 0;
    r->lost_pending = r->lost_total = r->written = 0;
    evt_rkh_filter_all(r, 0); /* RKH: static tables, everything suppressed until turned on */
    ring_put(r, RKH_FLAG);
    /* TCFG: default begin (no filter, no seq, no timestamp), checksum if enabled. */
    if ((cfg->flags & (EVT_RKH_F_TRC_FWK_EN | EVT_RKH_F_TRC_ALL_EN)) == 0) return;
    r->chk = 0;
    put_u8(r, RKH_TE_TCFG);
    put_n(r, cfg->version, 2);
    put_n(r, cfg->flags, 4);
    put_u8(r, (uint8_t)((cfg->sz_sig << 4) | (cfg->sz_ts & 15u)));
    put_u8(r, (uint8_t)((cfg->sz_ptr << 4) | (cfg->sz_ntimer & 15u)));
    put_u8(r, (uint8_t)((cfg->sz_nblock << 4) | (cfg->sz_nelem & 15u)));
    put_u8(r, cfg->sz_esize);
    put_u8(r, (uint8_t)((cfg->sz_bsize << 4) | cfg->max_pool)); /* RKH does not mask the pool count */
    put_n(r, ts_hz, 2);
    close_record(r);
}

void evt_rkh_set_sink(evt_rkh_recorder *r, evt_rkh_sink_fn fn, void *user)
{
    r->sink = fn;
    r->sink_user = user;
    drain_to_sink(r);
}

int evt_rkh_get_byte(evt_rkh_recorder *r, uint8_t *b)
{
    if (!r->qty) return 0;
    *b = r->ring[r->out];
    r->out = (r->out + 1u == r->size) ? 0u : r->out + 1u;
    r->qty--;
    r->head_is_start = (*b == RKH_FLAG);
    r->head_partial = (*b != RKH_FLAG);
    return 1;
}

const uint8_t *evt_rkh_get_block(evt_rkh_recorder *r, uint32_t *n)
{
    uint32_t run = r->size - r->out;
    if (run > r->qty) run = r->qty;
    if (run > *n) run = *n;
    const uint8_t *p = r->ring + r->out;
    if (run) {
        r->head_is_start = (p[run - 1u] == RKH_FLAG);
        r->head_partial = !r->head_is_start;
    }
    r->out += run;
    if (r->out == r->size) r->out = 0;
    r->qty -= run;
    *n = run;
    return p;
}

uint32_t evt_rkh_get_whole_block(evt_rkh_recorder *r, uint8_t *dst, uint32_t n)
{
    uint32_t k = 0;
    while (k < n && evt_rkh_get_byte(r, dst + k)) k++;
    return k;
}

/* ---- filters ----------------------------------------------------------------------------------- */

static void bit_set(uint8_t *t, unsigned i, int on)
{
    if (on) t[i >> 3] = (uint8_t)(t[i >> 3] | (1u << (i & 7u)));
    else t[i >> 3] = (uint8_t)(t[i >> 3] & ~(1u << (i & 7u)));
}
static int bit_get(const uint8_t *t, unsigned i) { return (t[i >> 3] >> (i & 7u)) & 1u; }

void evt_rkh_filter_on_group(evt_rkh_recorder *r, unsigned g) { bit_set(&r->grp_filter, g & 7u, 0); }
void evt_rkh_filter_off_group(evt_rkh_recorder *r, unsigned g) { bit_set(&r->grp_filter, g & 7u, 1); }
void evt_rkh_filter_on_group_all_events(evt_rkh_recorder *r, unsigned g)
{
    bit_set(&r->grp_filter, g & 7u, 0);
    for (unsigned e = 0; e < 32; e++) bit_set(r->ev_filter, ((g & 7u) << 5) | e, 0);
}
void evt_rkh_filter_off_group_all_events(evt_rkh_recorder *r, unsigned g)
{
    bit_set(&r->grp_filter, g & 7u, 1);
    for (unsigned e = 0; e < 32; e++) bit_set(r->ev_filter, ((g & 7u) << 5) | e, 1);
}
void evt_rkh_filter_on_event(evt_rkh_recorder *r, unsigned id) { bit_set(r->ev_filter, id & 255u, 0); }
void evt_rkh_filter_off_event(evt_rkh_recorder *r, unsigned id)
{
    bit_set(r->ev_filter, id & 255u, 1);
    bit_set(&r->grp_filter, (id & 255u) >> 5, 1);
}
void evt_rkh_filter_on_sma(evt_rkh_recorder *r, unsigned p) { bit_set(r->ao_filter, p & 63u, 0); }
void evt_rkh_filter_off_sma(evt_rkh_recorder *r, unsigned p) { bit_set(r->ao_filter, p & 63u, 1); }
void evt_rkh_filter_on_signal(evt_rkh_recorder *r, unsigned s) { bit_set(r->sig_filter, s & 255u, 0); }
void evt_rkh_filter_off_signal(evt_rkh_recorder *r, unsigned s) { bit_set(r->sig_filter, s & 255u, 1); }

/* Compile-time group switches (TCFG flags): is the record's group built in? */
static int group_built(const evt_rkh_recorder *r, unsigned id)
{
    uint32_t f = r->cfg.flags;
    if (f & EVT_RKH_F_TRC_ALL_EN) return 1;
    switch (id >> 5) {
    case 0: return (f & EVT_RKH_F_TRC_MP_EN) != 0;
    case 1: return (f & EVT_RKH_F_TRC_QUE_EN) != 0;
    case 2: return (f & EVT_RKH_F_TRC_SMA_EN) != 0;
    case 3: return (f & EVT_RKH_F_TRC_SM_EN) != 0;
    case 4: return (f & EVT_RKH_F_TRC_TMR_EN) != 0;
    case 5: return (f & EVT_RKH_F_TRC_FWK_EN) != 0;
    case 6: return (f & EVT_RKH_F_TRC_USER_TRACE_EN) != 0;
    default: return 1;
    }
}

static int passes(const evt_rkh_recorder *r, unsigned id, int prio, int sig)
{
    uint32_t f = r->cfg.flags;
    if (!group_built(r, id)) return 0;
    if (!(f & EVT_RKH_F_TRC_RTFIL_EN)) return 1;
    if (!bit_get(&r->grp_filter, id >> 5) || !bit_get(r->ev_filter, id)) return 0;
    if (prio >= 0 && (f & EVT_RKH_F_TRC_RTFIL_SMA_EN) && !bit_get(r->ao_filter, (unsigned)prio & 63u)) return 0;
    if (sig >= 0 && (f & EVT_RKH_F_TRC_RTFIL_SIGNAL_EN) && !bit_get(r->sig_filter, (unsigned)sig & 255u)) return 0;
    return 1;
}

/* ---- records ----------------------------------------------------------------------------------- */

static void open_record(evt_rkh_recorder *r, unsigned id)
{
    r->crit = evt_port_crit_enter();
    /* Report losses once the ring has room for the report (a stuffed loss record is at most 20
     * bytes): a ring that keeps overflowing is not filled with reports of its own overflow. */
    if (r->lost_pending && r->size - r->qty >= 20u) {
        uint32_t n = r->lost_pending;
        r->lost_pending = 0;
        r->chk = 0;
        put_u8(r, EVT_RKH_TE_LOST);
        put_n(r, n, 4);
        put_n(r, r->lost_total, 4);
        close_record(r);
    }
    r->chk = 0;
    r->open = 1;
    put_u8(r, (uint8_t)id);
    if (r->cfg.flags & EVT_RKH_F_TRC_NSEQ_EN) put_u8(r, r->seq++);
    if (r->cfg.flags & EVT_RKH_F_TRC_TSTAMP_EN) put_n(r, r->ts ? r->ts() : 0u, r->cfg.sz_ts);
}

int evt_rkh_begin_ao_sig(evt_rkh_recorder *r, unsigned id, int prio, int sig)
{
    if (!passes(r, id & 255u, prio, sig)) return 0;
    open_record(r, id & 255u);
    return 1;
}
int evt_rkh_begin(evt_rkh_recorder *r, unsigned id) { return evt_rkh_begin_ao_sig(r, id, -1, -1); }
int evt_rkh_begin_ao(evt_rkh_recorder *r, unsigned id, int prio) { return evt_rkh_begin_ao_sig(r, id, prio, -1); }
int evt_rkh_begin_nofilt(evt_rkh_recorder *r, unsigned id)
{
    if (!group_built(r, id & 255u)) return 0;
    open_record(r, id & 255u);
    return 1;
}

void evt_rkh_end(evt_rkh_recorder *r)
{
    if (!r->open) return;
    close_record(r);
    r->open = 0;
    evt_port_crit_exit(r->crit);
    drain_to_sink(r);
}

void evt_rkh_ui8(evt_rkh_recorder *r, uint8_t v) { put_u8(r, v); }
void evt_rkh_ui16(evt_rkh_recorder *r, uint16_t v) { put_n(r, v, 2); }
void evt_rkh_ui32(evt_rkh_recorder *r, uint32_t v) { put_n(r, v, 4); }
void evt_rkh_sym(evt_rkh_recorder *r, uintptr_t p) { put_n(r, (uint32_t)p, r->cfg.sz_ptr); }
void evt_rkh_fun(evt_rkh_recorder *r, uintptr_t p) { put_n(r, (uint32_t)p, r->cfg.sz_fun); }
void evt_rkh_sig(evt_rkh_recorder *r, uint32_t v) { put_n(r, v, r->cfg.sz_sig); }
void evt_rkh_ne(evt_rkh_recorder *r, uint32_t v) { put_n(r, v, r->cfg.sz_nelem); }
void evt_rkh_nblk(evt_rkh_recorder *r, uint32_t v) { put_n(r, v, r->cfg.sz_nblock); }
void evt_rkh_bsize(evt_rkh_recorder *r, uint32_t v) { put_n(r, v, r->cfg.sz_bsize); }
void evt_rkh_esize(evt_rkh_recorder *r, uint32_t v) { put_n(r, v, r->cfg.sz_esize); }
void evt_rkh_ntick(evt_rkh_recorder *r, uint32_t v) { put_n(r, v, r->cfg.sz_ntimer); }
void evt_rkh_str(evt_rkh_recorder *r, const char *s)
{
    while (*s) put_u8(r, (uint8_t)*s++);
    put_u8(r, 0);
}

/* User field value sizes by type, from the kind letters of RKH_USER_FIELD_TABLE (STR and MEM are
 * written by their own calls). */
static unsigned usr_size(const evt_rkh_recorder *r, unsigned type)
{
    static const char kinds[] = {
#define RKH_UF_KIND_(t, name, k, sg) k,
        RKH_USER_FIELD_TABLE(RKH_UF_KIND_)
#undef RKH_UF_KIND_
    };
    switch (type < sizeof kinds ? kinds[type] : '4') {
    case '1': return 1;
    case '2': return 2;
    case 'S': return r->cfg.sz_ptr;
    case 'F': return r->cfg.sz_fun;
    case 'G': return r->cfg.sz_sig;
    default: return 4;
    }
}

void evt_rkh_usr_int(evt_rkh_recorder *r, unsigned type, unsigned width, uint32_t v)
{
    put_u8(r, (uint8_t)(((width & 15u) << 4) | (type & 15u)));
    put_n(r, v, usr_size(r, type & 15u));
}

void evt_rkh_usr_str(evt_rkh_recorder *r, const char *s)
{
    put_u8(r, 7u);
    evt_rkh_str(r, s);
}

void evt_rkh_usr_mem(evt_rkh_recorder *r, const uint8_t *p, uint8_t n)
{
    put_u8(r, 8u);
    put_u8(r, n);
    for (unsigned i = 0; i < n; i++) put_u8(r, p[i]);
}

/* ---- symbol records ------------------------------------------------------------------------------ */

static void sym_ptr_name(evt_rkh_recorder *r, unsigned id, uintptr_t p, const char *name)
{
    if (!evt_rkh_begin_nofilt(r, id)) return;
    evt_rkh_sym(r, p);
    evt_rkh_str(r, name);
    evt_rkh_end(r);
}

static void sym_two_name(evt_rkh_recorder *r, unsigned id, uintptr_t a, uintptr_t b, const char *name)
{
    if (!evt_rkh_begin_nofilt(r, id)) return;
    evt_rkh_sym(r, a);
    evt_rkh_sym(r, b);
    evt_rkh_str(r, name);
    evt_rkh_end(r);
}

void evt_rkh_sym_obj(evt_rkh_recorder *r, uintptr_t obj, const char *name) { sym_ptr_name(r, RKH_TE_FWK_OBJ, obj, name); }
void evt_rkh_sym_fun(evt_rkh_recorder *r, uintptr_t fn, const char *name) { sym_ptr_name(r, RKH_TE_FWK_FUN, fn, name); }
void evt_rkh_sym_ao(evt_rkh_recorder *r, uintptr_t ao, const char *name) { sym_ptr_name(r, RKH_TE_FWK_AO, ao, name); }
void evt_rkh_sym_timer(evt_rkh_recorder *r, uintptr_t t, const char *name) { sym_ptr_name(r, RKH_TE_FWK_TIMER, t, name); }
void evt_rkh_sym_queue(evt_rkh_recorder *r, uintptr_t q, const char *name) { sym_ptr_name(r, RKH_TE_FWK_QUEUE, q, name); }
void evt_rkh_sym_actor(evt_rkh_recorder *r, uintptr_t a, const char *name) { sym_ptr_name(r, RKH_TE_FWK_ACTOR, a, name); }
void evt_rkh_sym_state(evt_rkh_recorder *r, uintptr_t ao, uintptr_t st, const char *name) { sym_two_name(r, RKH_TE_FWK_STATE, ao, st, name); }
void evt_rkh_sym_pstate(evt_rkh_recorder *r, uintptr_t ao, uintptr_t st, const char *name) { sym_two_name(r, RKH_TE_FWK_PSTATE, ao, st, name); }

void evt_rkh_sym_sig(evt_rkh_recorder *r, uint32_t sig, const char *name)
{
    if (!evt_rkh_begin_nofilt(r, RKH_TE_FWK_SIG)) return;
    evt_rkh_sig(r, sig);
    evt_rkh_str(r, name);
    evt_rkh_end(r);
}

void evt_rkh_sym_tusr(evt_rkh_recorder *r, unsigned user_event, const char *name)
{
    if (!evt_rkh_begin_nofilt(r, RKH_TE_FWK_TUSR)) return;
    evt_rkh_ui8(r, (uint8_t)user_event);
    evt_rkh_str(r, name);
    evt_rkh_end(r);
}

void evt_rkh_sym_epool(evt_rkh_recorder *r, unsigned pool, const char *name)
{
    if (!evt_rkh_begin_nofilt(r, RKH_TE_FWK_EPOOL)) return;
    evt_rkh_ui8(r, (uint8_t)pool);
    evt_rkh_str(r, name);
    evt_rkh_end(r);
}

/* RKH trace recorder (target side), on the recorder core (evtrace/recorder.h). Freestanding C99:
 * no libc, no malloc.
 *
 * Invariants
 *  R1 The ring holds whole stuffed records, each followed by one raw 0x7E, after one initial 0x7E;
 *     a raw 0x7E in the ring is always a record boundary (stuffing turns data 0x7E into 7D 5E).
 *     The oldest byte is a flag, or (after a drain) the first byte of a record whose flag was
 *     drained (HEAD_START) or a byte inside a record whose start was drained (HEAD_PARTIAL),
 *     which may be the abort escape of R2b.
 *  R2b When an eviction removes the rest of a record whose start was drained, the reader holds a
 *     truncated frame, which its checksum would catch only 255 times in 256: the eviction keeps
 *     one byte before the next flag and writes a raw 0x7D there, so the reader sees escape + flag
 *     and drops the frame as aborted, always (a reader already inside an escape, HEAD_ESC, sees
 *     the flag itself as the abort: nothing is written). The record was counted lost (R2).
 *  R2 Room is made by evicting whole records from the oldest end: the oldest unit (a flag and the
 *     record after it, or the rest of a record a drain started) goes at once and, when it held a
 *     data record (not TCFG, not a loss record), loss.overwritten counts one. The open record is
 *     never evicted: a record that does not fit in the ring is discarded at end (its bytes and
 *     its sequence number taken back) and counted as dropped. The ring it leaves keeps what the
 *     eviction left before the record's flag (R2b's escape).
 *  R3 Every record is written inside the recorder's own lock (evt_rec_lock) with the nesting guard
 *     set, from begin to end, including the sink calls (or, on a thread-owned recorder, inside
 *     its owner's flag: O1-O6); drains and filter changes take the lock
 *     too (a filter change by a nested context that cannot take it is made anyway: FILTER_FN).
 *     A begin nested in an open record of the same recorder (an interrupt, a signal, the sink)
 *     finds the guard set, or a nested context finds the lock held elsewhere: it returns 0 and
 *     counts a drop, touching nothing else. (On a port whose lock tells nesting, POSIX, the
 *     guard is the lock's state, evt_rec_guard_enter: a context of the thread inside, entering
 *     or leaving any section of the lock is refused, a drain's, a filter change's or a
 *     record's.) A filtered record touches nothing (no clock read, no sequence number, no ring
 *     byte), as in RKH. (The user-event carrier, rkh_user_enc.c, keeps a
 *     signal handler's user record nested in a record of its thread, a user one or the
 *     application's, out of this drop: it stashes it and writes it after, user_nest_enc.c
 *     N1-N5; the recorder itself is unchanged.)
 *  R4 Every loss reaches the stream: the loss record (EVT_RKH_TE_LOST: count since the previous
 *     one, running total) is written before the next record when drops are pending, when the ring
 *     has room for it again after overwrites, or when a ring's worth of bytes was evicted since
 *     the last one; evt_rkh_flush and a drain that empties the ring write it too. Its running
 *     total (lost_total) is the sum of every count taken, so a loss record that is itself evicted
 *     loses no count as long as a later one reaches the reader: when the last one written leaves
 *     the ring by eviction (whole, or its rest after a drain took its start; tracked in lr), the
 *     next flush or emptying drain writes one even with nothing pending (count 0, the total). So
 *     after a flush, decoded data records + the last total == records issued. Overwrites wait in ow_pend
 *     and enter the loss account (become pending) only once a loss record may be due for them (a
 *     ring's worth evicted, a drain, a sink, a loss record being written): a flight ring that
 *     keeps overwriting has nothing pending in between, so its records skip the loss test.
 *  R5 The checksum covers every unescaped byte from the id to the last argument; the byte written is
 *     (0 - sum) mod 256, stuffed like any other.
 *  R6 Fast paths (the default header in evt_rkh_open_, the inline 4-byte writers of evtrace/rkh.h,
 *     field, end's close) keep only the cursor per field. While a record is open, [in, lim) is
 *     contiguous free room (lim <= size, at most ROOM_CAP bytes past the cursor it was set at); a
 *     fast writer stores only when its bytes and 3 more (the largest checksum and flag) fit before
 *     lim, so the close needs no other room test. qty counts the ring as of mark: the bytes written
 *     since are added by end or by the next slow path. sum + tsum holds the record's byte sum in two
 *     16-bit lanes (each byte adds at most 255 to one lane; ROOM_CAP keeps a lane of the two
 *     together below 65536); tsum is the timestamp's lanes when the inline open (evtrace/rkh.h)
 *     wrote the header, else 0, so the fields' additions to sum do not wait for the clock read;
 *     every path that starts a record sets both, slow_begin folds tsum into sum. open != 2 with
 *     lim != 0 means a record is open and no slow path ran yet (no begin writes open, every end
 *     sets it to 0: one store fewer per record): open_at (= mark) and seq_open (= seq - NSEQ) are
 *     derived by slow_begin, which also brings qty up to date and folds sum to one byte before any slow writer
 *     runs; slow_end sets lim again (to in, no room, once the record is truncated). With no record
 *     open, lim is 0: end's fast test (in + 3 <= lim) is also its test for an open record.
 *  R7 Between records, [in, nlim) is contiguous free room of at most ROOM_CAP bytes, or nlim <
 *     in + OPEN_ROOM (0: not known). [in, fend) is contiguous free room when fend > in (at most
 *     all of it): header6_after_room and slow_end set it from the ring's state (with lim, so lim
 *     <= fend and a record's writers leave the room past it free); drains and evictions only
 *     free room; every path that takes in back or across the ring's end either empties the ring
 *     (end's streamed close: any fend <= size is then true) or sets nlim to 0 (the ring's end in
 *     end's fast close, the slow end), so the next begin sets fend again before it is read. End's
 *     fast close sets nlim to min(fend, in + ROOM_CAP): a flight ring's records work the room out
 *     only at its evictions and wraps, not every ROOM_CAP bytes; lim0 once a streamed record left
 *     the ring empty at index 0. Every other path that moves in outside a record (start_record:
 *     init's TCFG, loss records; the slow end) sets nlim to 0. The default header takes nlim as
 *     its lim when it leaves OPEN_ROOM bytes, else works the room out from the ring
 *     (header6_after_room).
 * Thread ownership (EVT_RKH_OWNED=1, the POSIX port; evt_rkh_own). own is 0 (every context locks,
 * as above) or the owner thread's flag: the address of its evt_rkh_obusy_, 1 while a context of
 * that thread is inside a recorder it owns. The flag is the thread's, not the recorder's, so a
 * thread that read own just before another took the recorder over writes only its own flag
 * (with a flag in the recorder it cleared the new owner's, or found it set and refused a normal
 * context's record: a dropped record in test_rkh_owned_mt's handoff under TSan).
 *  O1 own leaves 0 only inside the lock, and changes only inside an entry of the recorder: the
 *     lock with the claim held (O3), or the owner's own flag (O2, O4); never with a record open
 *     (set_owner is an entry of its own). So a locked entry that read 0 before taking the lock
 *     reads it again inside (acquire: an owner that gave it up wrote its records before) and,
 *     not 0, continues as O3 or O4.
 *  O2 The owner (own == its flag) tests its flag (set: a context of its thread is inside, a handler
 *     or a sink: refused, dropped and counted as R3's guard does), sets it, a compiler barrier,
 *     then reads claim (acquire) and own again: claim 0 and own still its flag, and it is inside,
 *     alone, until it clears the flag (release) at its exit. Otherwise it clears the flag and goes
 *     through the lock (O4, or O3 if another thread took the recorder meanwhile).
 *  O3 Any other context takes the lock and its guard (R3), then, owned, stores claim 1, runs
 *     membarrier(2) (every thread of the process passes a full barrier: the owner's flag store
 *     and its claim load are then ordered, a Dekker pair with no fence on the owner's side) and
 *     waits until the owner's flag reads 0 (acquire: the owner's bytes before it). From then on
 *     the owner finds claim set and queues on the lock: the claimer has the recorder alone until
 *     it stores claim 0 (release) and leaves the lock. The wait is unbounded when the claimer's
 *     thread holds no other lock and no owned recorder (the owner needs nothing of it to finish;
 *     only the lock holder waits here), else bounded as a nested context's (the port's wait step;
 *     a fork child whose owner did not survive gives up too): giving up clears claim and leaves,
 *     refused as R3's nested contexts are.
 *  O4 The owner through the lock (it found a claim): inside the lock no claim is in progress
 *     (claims are made under it), so it sets its flag (keeping its handlers out, as O2) and
 *     clears it at its exit, before the lock.
 *  O5 The owner's records are in no port section (a port simulated ISR is not held off: refused,
 *     counted), so the user-event carrier's test for a handler inside a record of its thread
 *     (rkh_user_enc.c in_owned_record: its flag set) stashes the handler's user line instead of
 *     dropping it, and the owner's exit runs what a handler left for it (evt_posix_after_record:
 *     user_nest_enc.c N5).
 *  O6 A thread's flag lives as long as the thread: evt_rkh_own lists the recorder in the thread's
 *     t_owned (at most OWN_MAX) and the thread's exit (a thread-specific key's destructor, port
 *     evt_posix_on_thread_exit) gives up each it still owns, then passes through its lock once,
 *     so that no claimer still reads the flag when the thread is gone.
 * Filter changes stay on the lock alone (R3: their bits are atomic, their publish a CAS), read by
 * the owner's begins with relaxed loads as every context's are. */
#define EVT_RKH_END_DEFINE_ 1 /* evtrace/rkh.h: evt_rkh_end's definition (external here) */
#include "evtrace/rkh.h"

#include <stddef.h>

#include "evtrace/recorder.h"
#include "formats/rkh/rkh_defs.h"

/* The largest stuffed loss record: id, 2 x u32 and the checksum, each byte possibly escaped, and
 * its flag. */
#define LOSS_MAX (2u * (1u + 8u + 1u) + 1u)

/* The fast room a record may use from in: contiguous, free, and at most ROOM_CAP bytes (so the
 * checksum's 16-bit lanes cannot overflow: each byte adds at most 255 to one lane). */
#define ROOM_CAP EVT_RKH_ROOM_CAP_ /* evtrace/rkh.h */
#define OPEN_ROOM EVT_RKH_OPEN_ROOM_ /* evtrace/rkh.h */

/* Out of line, off the hot paths' registers. */
#if defined(__GNUC__) || defined(__clang__)
#define RKH_COLD __attribute__((noinline, cold))
#else
#define RKH_COLD
#endif

/* ---- ring ------------------------------------------------------------------------------------ */

#define HEAD_START EVT_RKH_HEAD_START
#define HEAD_PARTIAL EVT_RKH_HEAD_PARTIAL
#define HEAD_PDATA EVT_RKH_HEAD_PDATA
#define HEAD_ESC EVT_RKH_HEAD_ESC
#define HEAD_DRAINED EVT_RKH_HEAD_DRAINED

/* Records that carry a sequence number (what the loss count counts). */
static int is_data_id(uint8_t id) { return id != RKH_FLAG && id != RKH_TE_TCFG && id != EVT_RKH_TE_LOST; }

static inline uint32_t next_ix(const evt_rkh_recorder *r, uint32_t i) { return i + 1u == r->size ? 0u : i + 1u; }

/* Is ring index at one of the n bytes from index from on? */
static inline int in_run(const evt_rkh_recorder *r, uint32_t from, uint32_t n, uint32_t at)
{
    return (at >= from ? at - from : at + r->size - from) < n;
}

#if EVT_RKH_FLIGHT
/* The fewest bytes a data record takes with its flag: id, seq, the timestamp, the checksum (with
 * sequence numbers on; every data record has the configured header). */
static inline uint32_t min_unit(const evt_rkh_recorder *r)
{
    uint32_t f = r->cfg.flags, ts = r->cfg.sz_ts < 4u ? r->cfg.sz_ts : 4u;
    return 3u + ((f & EVT_RKH_F_TRC_TSTAMP_EN) ? ts : 0u) + ((f & EVT_RKH_F_TRC_CHK_EN) != 0u);
}

/* n bytes from the head at out0 left the ring by eviction: if the last loss record written was
 * among them (or, partial_lr, was the rest of a record a drain started), the next flush writes
 * another to carry the running total (R4). */
static void lr_evicted(evt_rkh_recorder *r, uint32_t out0, uint32_t n, int partial_lr)
{
    if (((r->lr & EVT_RKH_LR_LIVE) && in_run(r, out0, n, r->lr_at)) || (partial_lr && (r->lr & EVT_RKH_LR_DRAIN)))
        r->lr = EVT_RKH_LR_GONE;
}

/* The eviction scan reads the ring a machine word at a time (8 bytes on 64-bit hosts) and finds a
 * flag's position in the word directly: in m below, the lowest set bit is exactly the first byte
 * equal to the flag (a borrow can only mark bytes above a true match), read little-endian. */
#if UINTPTR_MAX > 0xFFFFFFFFu
typedef uint64_t scan_word;
#else
typedef uint32_t scan_word;
#endif
#define SCAN_ONES ((scan_word)-1 / 255u) /* 0x01 in every byte */
static inline unsigned first_flag(const uint8_t *p) /* sizeof(scan_word) if none */
{
    scan_word w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && (defined(__GNUC__) || defined(__clang__))
    __builtin_memcpy(&w, p, sizeof w);
#else
    for (unsigned b = sizeof w; b-- > 0;) w = (scan_word)(w << 8 | p[b]);
#endif
    scan_word x = w ^ (SCAN_ONES * RKH_FLAG);
    scan_word m = (x - SCAN_ONES) & ~x & (SCAN_ONES * 0x80u);
    if (!m) return sizeof w;
#if defined(__GNUC__) || defined(__clang__)
    return (sizeof w == 8u ? (unsigned)__builtin_ctzll((unsigned long long)m) : (unsigned)__builtin_ctz((unsigned)m)) >> 3;
#else
    unsigned k = 0;
    while (!(m & 0x80u)) { m >>= 8; k++; }
    return k;
#endif
}

#endif /* EVT_RKH_FLIGHT */

/* Overwritten records into the loss account (pending) now (none without the flight ring). */
#if EVT_RKH_FLIGHT
static RKH_COLD void ow_move(evt_rkh_recorder *r)
{
    if (r->ow_pend) {
        evt_loss_overwritten(&r->loss, r->ow_pend);
        r->ow_pend = 0;
    }
}
#else
static inline void ow_move(evt_rkh_recorder *r) { (void)r; }
#endif

#if EVT_RKH_FLIGHT

/* Count records an eviction overwrote (R4): held in ow_pend until a loss record may be due for
 * them (a ring's worth evicted since the last one, a drain, a sink that drains after every
 * record). */
static void overwritten(evt_rkh_recorder *r, uint32_t lost)
{
    r->ow_pend += lost;
    if (r->evicted >= r->size || (r->head & HEAD_DRAINED) || r->sink) ow_move(r);
}

/* Evict whole units from the oldest end (R2), in one pass, until `want` bytes are free or only
 * the open record is left. A unit is a flag and the record after it, or, after a drain, the
 * record (or rest of one) at the head; it is lost, and counted, when it holds a data record. */
static void evict(evt_rkh_recorder *r, uint32_t want)
{
    const uint32_t size = r->size, n = r->qty;
    const uint8_t *ring = r->ring;
    uint32_t i = r->out, k = 0;   /* scan position, bytes scanned from the head */
    uint32_t kb = 0, ob = i;      /* bytes and new head at the last whole unit */
    evt_rec_count lost = 0;
    int cur, any = 0;             /* the unit being scanned holds a data record */
    uint32_t cut = 0;             /* 1: the first unit is the rest of a drained record (R2b) */
    uint32_t first_k = 0;         /* bytes before the first flag found */
    if (r->head & HEAD_PARTIAL) cur = (r->head & HEAD_PDATA) != 0u;
    else if (r->head & HEAD_START) cur = n > 0 && is_data_id(ring[i]);
    else {
        if (n < 2u) return;
        i = next_ix(r, i);
        k = 1;
        cur = is_data_id(ring[i]);
    }
    for (;;) {
        int found = 0;
        while (k < n) { /* the next flag, one contiguous run at a time */
            uint32_t run = size - i < n - k ? size - i : n - k, j = 0;
            const uint8_t *p = ring + i;
            for (;;) {
                if (run - j >= sizeof(scan_word)) {
                    unsigned f = first_flag(p + j);
                    j += f;
                    if (f < sizeof(scan_word)) break;
                } else {
                    while (j < run && p[j] != RKH_FLAG) j++;
                    break;
                }
            }
            k += j;
            i += j;
            if (i == size) i = 0;
            if (j < run) { found = 1; break; }
        }
        if (!found) break; /* no flag after it: the open record (or nothing) */
        if (k > kb && cur) lost++; /* a drain may have taken all of a record but its flag */
        if (!any) first_k = k;
        if (!any && (r->head & (HEAD_PARTIAL | HEAD_ESC)) == HEAD_PARTIAL && k > 0u) cut = 1; /* R2b */
        kb = k;
        ob = i;
        any = 1;
        if (size - (n - kb) >= want + cut || n - k < 2u) break;
        i = next_ix(r, i); /* the next unit: this flag and the record after it */
        k++;
        cur = is_data_id(ring[i]);
    }
    if (!any) return;
    /* a drained start of a record that is not a data record (a loss record, TCFG) loses its rest */
    int partial_lr = (r->head & (HEAD_PARTIAL | HEAD_PDATA)) == HEAD_PARTIAL && first_k > 0u;
    r->head &= (uint8_t)(HEAD_ESC | HEAD_DRAINED); /* the head is now a flag */
    if (cut) { /* R2b: the last evicted byte becomes the abort escape before the flag at ob */
        ob = ob == 0u ? size - 1u : ob - 1u;
        r->ring[ob] = RKH_ESC;
        kb--;
        r->head |= HEAD_PARTIAL;
    }
    if (r->lr) lr_evicted(r, r->out, kb, partial_lr);
    r->out = ob;
    r->qty = n - kb;
    r->evicted += kb;
    overwritten(r, (uint32_t)lost);
}

#if EVT_RKH_FAST /* used by the fast paths' make-room only */
/* The ring index of the first flag at or after k bytes from the head (k < qty), as a distance
 * from the head, or qty if none. */
static uint32_t flag_at_or_after(const evt_rkh_recorder *r, uint32_t k)
{
    const uint32_t size = r->size, n = r->qty;
    while (k < n) {
        uint32_t i = r->out + k;
        if (i >= size) i -= size;
        uint32_t run = size - i < n - k ? size - i : n - k, j = 0;
        const uint8_t *p = r->ring + i;
        while (run - j >= sizeof(scan_word)) {
            unsigned f = first_flag(p + j);
            j += f;
            if (f < sizeof(scan_word)) return k + j;
        }
        while (j < run && p[j] != RKH_FLAG) j++;
        k += j;
        if (j < run) return k;
    }
    return n;
}

/* The sequence number of the record after the flag k bytes from the head; -1 if it is not a data
 * record (TCFG, a loss record), -2 if the flag is followed by another. The record is complete. */
static int unit_seq(const evt_rkh_recorder *r, uint32_t k)
{
    uint32_t i = r->out + k;
    if (i >= r->size) i -= r->size;
    i = next_ix(r, i);
    uint8_t id = r->ring[i];
    if (id == RKH_FLAG) return -2;
    if (id == RKH_ESC) i = next_ix(r, i); /* 0x7D/0x7E ids: data records */
    else if (!is_data_id(id)) return -1;
    i = next_ix(r, i);
    uint8_t seq = r->ring[i];
    if (seq == RKH_ESC) seq = (uint8_t)(r->ring[next_ix(r, i)] ^ RKH_ESC_XOR);
    return seq;
}

/* evict's usual case, without reading every evicted byte: sequence numbers on, the head at a
 * flag (no drain in progress), every record in the ring complete (no record open in it), seq0
 * the next record's sequence number. The new head is found as evict finds it (the first flag
 * that leaves `want` bytes free), and the data records evicted are counted exactly as the
 * difference of the sequence numbers of the first data record evicted and the first one kept
 * (seq0 if none): data records take consecutive numbers (a discarded record gives its number
 * back, a dropped one takes none), and at most 255 start in the d < 255 * min_unit bytes before
 * the new head (each takes at least min_unit: 2040 bytes with RKH's template configuration, 765
 * with neither timestamp nor checksum). Returns 0 (nothing done) where evict must run. */
static int evict_by_seq(evt_rkh_recorder *r, uint32_t want, uint8_t seq0)
{
    const uint32_t n = r->qty;
    if ((r->head & (HEAD_START | HEAD_PARTIAL)) || n < 2u || r->size - n >= want) return 0;
    uint32_t d = want - (r->size - n); /* bytes to evict at least: the new head is a flag at >= d */
    if (d >= n || d >= 255u * min_unit(r)) return 0;
    uint32_t k = flag_at_or_after(r, d);
    if (k >= n) return 0;
    uint32_t g = k; /* the first data record kept: skip the other records (loss records) */
    int b = g + 1u < n ? unit_seq(r, g) : seq0;
    while (b == -1) {
        g = flag_at_or_after(r, g + 1u);
        b = g + 1u < n ? unit_seq(r, g) : seq0;
    }
    if (b < 0) return 0;
    uint32_t f = 0; /* the first data record evicted: skip the other records before it */
    int a = unit_seq(r, 0);
    while (a == -1) {
        f = flag_at_or_after(r, f + 1u);
        a = f < k ? unit_seq(r, f) : b;
    }
    if (a < 0) return 0;
    if (r->lr) lr_evicted(r, r->out, k, 0);
    r->out = r->out + k >= r->size ? r->out + k - r->size : r->out + k;
    r->qty = n - k;
    r->evicted += k;
    overwritten(r, (uint8_t)((unsigned)b - (unsigned)a));
    return 1;
}
#endif

/* The room made beyond what is needed when a full ring evicts: a quarter of the ring, at most 1024
 * bytes and less than evict_by_seq's window (so it covers a batch), so a full ring evicts in
 * batches and the records between take the fast paths. A flight ring thus holds 3/4 to all of
 * its bytes in records; an eighth (at most 512 bytes) cost 0.05x of the baseline per record
 * more on bench_rkh's 4 KiB ring (twice the evictions; 30 Nov 2026, Zen 5). */
static inline uint32_t evict_ahead(const evt_rkh_recorder *r)
{
    uint32_t a = r->size / 4u, w = 255u * min_unit(r) - OPEN_ROOM - 1u;
    if (a > 1024u) a = 1024u;
    return a < w ? a : w;
}

#endif /* EVT_RKH_FLIGHT */

/* Make room for `need` bytes and evict_ahead more (flight ring). Sets trunc and returns 0 when the
 * open record fills the ring (streamed only: when the free room is short). */
static int make_room(evt_rkh_recorder *r, uint32_t need)
{
    if (r->trunc) return 0;
#if EVT_RKH_FLIGHT
    uint32_t ahead = evict_ahead(r);
    uint32_t want = need + ahead < r->size ? need + ahead : need;
    if (r->size - r->qty < want) evict(r, want);
#endif
    if (r->size - r->qty >= need) return 1;
    r->trunc = 1;
    return 0;
}

static inline void put_raw(evt_rkh_recorder *r, uint8_t b)
{
    uint32_t in = r->in;
    r->ring[in] = b;
    r->in = in + 1u == r->size ? 0u : in + 1u;
    r->qty++;
}

/* ---- slow-path writers ------------------------------------------------------------------------
 * They keep qty exact and the checksum folded to one byte in sum (slow_begin brings both up to
 * date from the fast paths' cursor and lanes; slow_end sets the fast room again). */

/* One record byte: checksum of the unescaped value, then stuffed. */
static inline void put_u8(evt_rkh_recorder *r, uint8_t b)
{
    r->sum = (uint8_t)(r->sum + b);
    if (EVT_UNLIKELY(r->size - r->qty < 2u) && !make_room(r, 2u)) return;
    if (EVT_UNLIKELY(b == RKH_FLAG || b == RKH_ESC)) {
        put_raw(r, RKH_ESC);
        b = (uint8_t)(b ^ RKH_ESC_XOR);
    }
    put_raw(r, b);
}

/* Append n record bytes: summed, stuffed. When the ring has contiguous room for the worst case
 * (every byte escaped), the cursor and the checksum stay in registers and are stored once. */
static inline void put_bytes(evt_rkh_recorder *r, const uint8_t *b, unsigned n)
{
    uint32_t in = r->in, size = r->size;
    if (EVT_LIKELY(size - r->qty >= 2u * n && size - in >= 2u * n)) {
        uint8_t *q = r->ring + in, *q0 = q;
        uint8_t chk = (uint8_t)r->sum;
        for (unsigned i = 0; i < n; i++) {
            uint8_t c = b[i];
            chk = (uint8_t)(chk + c);
            if (EVT_UNLIKELY(c == RKH_FLAG || c == RKH_ESC)) {
                *q++ = RKH_ESC;
                c = (uint8_t)(c ^ RKH_ESC_XOR);
            }
            *q++ = c;
        }
        uint32_t k = (uint32_t)(q - q0);
        r->sum = chk;
        r->qty += k;
        in += k;
        r->in = in == size ? 0u : in;
        return;
    }
    for (unsigned i = 0; i < n; i++) put_u8(r, b[i]);
}

typedef char rkh_flag_after_esc_test[RKH_FLAG == RKH_ESC + 1u ? 1 : -1]; /* stuff_bytes' test */

/* The word tests here and in evtrace/rkh.h find a byte that needs stuffing as a byte in 0x7C..0x7F
 * (b | 3 == 0x7F): the flag and the escape must be two of those. */
typedef char rkh_stuffed_bytes_in_word_test[((RKH_FLAG | 3u) == 0x7Fu && (RKH_ESC | 3u) == 0x7Fu) ? 1 : -1];

/* The low n bytes of w (n <= 7, the bytes above them 0), little-endian, when none needs stuffing
 * and the ring has 8 contiguous free bytes: one word test (bytes 0x7C..0x7F take the byte path),
 * one 8-byte store (the bytes past n land in free space), one byte sum. Returns 0 otherwise. */
static inline int put_word_fast(evt_rkh_recorder *r, uint64_t w, unsigned n)
{
    uint32_t in = r->in, size = r->size, qty = r->qty;
    uint64_t x = (w | 0x0303030303030303ull) ^ 0x7F7F7F7F7F7F7F7Full;
    uint64_t low = ((uint64_t)1 << (8u * n)) - 1u;
    if (EVT_UNLIKELY(((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull & low) != 0u)) return 0;
    if (EVT_UNLIKELY(size - qty < 8u || size - in < 8u)) return 0;
    uint8_t *q = r->ring + in;
    EVT_RKH_ST32LE_(q, (uint32_t)w);
    EVT_RKH_ST32LE_(q + 4, (uint32_t)(w >> 32));
    uint64_t sum = (w & 0x00FF00FF00FF00FFull) + ((w >> 8) & 0x00FF00FF00FF00FFull);
    sum += sum >> 16;
    sum += sum >> 32;
    r->sum = (uint8_t)(r->sum + (uint8_t)sum);
    r->qty = qty + n;
    in += n;
    r->in = in == size ? 0u : in;
    return 1;
}

/* The low n bytes of v (n <= 4), little-endian. */
static inline void put_n(evt_rkh_recorder *r, uint32_t v, unsigned n)
{
    if (n > 4u) n = 4u;
#if !EVT_RKH_FAST
    for (unsigned i = 0; i < n; i++) put_u8(r, (uint8_t)(v >> (8u * i)));
#else
    uint64_t w = n == 4u ? v : v & (((uint32_t)1 << (8u * n)) - 1u);
    if (EVT_LIKELY(put_word_fast(r, w, n))) return;
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put_bytes(r, b, n);
#endif
}

/* trunc is 0 here: every path that sets it clears it before the section ends. */
static void start_record(evt_rkh_recorder *r)
{
    if (EVT_RKH_FAST) r->nlim = 0; /* in moves: the next begin works its room out */
    r->sum = 0;
    if (EVT_RKH_FAST) r->tsum = 0; /* (only the fast paths set it) */
    r->open_at = r->in;
    r->qty_open = r->qty;
    r->seq_open = r->seq;
}

static RKH_COLD int close_record_slow(evt_rkh_recorder *r);

/* Checksum and flag; returns 1 if the record is in the ring, 0 if it was discarded (R2). The usual
 * case (room for both, contiguous) inline; the rest out of line. */
static inline int close_record(evt_rkh_recorder *r)
{
    uint32_t in = r->in;
    if (EVT_RKH_FAST && EVT_LIKELY(!r->trunc && r->size - r->qty >= 3u && r->size - in >= 3u)) {
        /* checksum (stuffed) and flag with a local cursor */
        uint8_t *q = r->ring + in, *q0 = q;
        if (r->cfg.flags & EVT_RKH_F_TRC_CHK_EN) {
            uint8_t c = (uint8_t)(0u - r->sum);
            if (c == RKH_FLAG || c == RKH_ESC) {
                *q++ = RKH_ESC;
                c = (uint8_t)(c ^ RKH_ESC_XOR);
            }
            *q++ = c;
        }
        *q++ = RKH_FLAG;
        uint32_t k = (uint32_t)(q - q0);
        r->qty += k;
        in += k;
        r->in = in == r->size ? 0u : in;
        return 1;
    }
    return close_record_slow(r);
}

/* close_record when the ring is short of contiguous room or the record was truncated. */
static RKH_COLD int close_record_slow(evt_rkh_recorder *r)
{
    if (r->cfg.flags & EVT_RKH_F_TRC_CHK_EN) {
        uint8_t c = (uint8_t)(0u - r->sum);
        put_u8(r, c);
    }
    if (r->size == r->qty) make_room(r, 1u);
    if (r->trunc) {
        /* Everything older was evicted: the ring holds the open record, after its flag unless a
         * drain took that flag, and before the flag the abort escape of R2b when the eviction cut
         * a record whose start was drained. What is left is [out, open_at): none, the flag, or the
         * escape and the flag (the escape must stay: the reader holds that record's start). */
        r->in = r->open_at;
#if EVT_RKH_FLIGHT
        r->qty = r->in >= r->out ? r->in - r->out : r->in + r->size - r->out;
#else
        r->qty = r->qty_open; /* nothing was evicted: the ring as the record found it (a full
                                 ring has in == out, so the indices alone cannot say) */
#endif
        r->seq = r->seq_open;
        r->trunc = 0;
        return 0;
    }
    put_raw(r, RKH_FLAG);
    return 1;
}

/* Write the loss record now if losses are pending (lock held, guard set). Room is made first, so
 * the count taken is the count written (evictions would add to it). */
static void write_loss(evt_rkh_recorder *r)
{
    ow_move(r);
    if (!evt_loss_pending(&r->loss) && !(r->lr & EVT_RKH_LR_GONE)) return;
    start_record(r);
    int room = make_room(r, LOSS_MAX);
    ow_move(r); /* what the room took */
    if (!room) { r->trunc = 0; return; } /* ring too small: stays pending */
    evt_rec_count dropped = EVT_LOAD_RLX(&r->loss.dropped);
    uint32_t n = (uint32_t)evt_loss_take(&r->loss);
    r->lost_total += n;
    put_u8(r, EVT_RKH_TE_LOST);
    put_n(r, n, 4);
    put_n(r, r->lost_total, 4);
    close_record(r); /* fits: room was made for it */
    r->lr = EVT_RKH_LR_LIVE;
    r->lr_at = r->open_at;
    r->drops_seen = dropped;
    r->evicted = 0;
    r->head &= (uint8_t)~HEAD_DRAINED;
}

/* Before a record: the loss record if drops are pending, or overwrites are and either a drain has
 * made room for the report or a ring's worth was evicted since the last one (R4): a ring that
 * keeps overflowing is not filled with reports of its own overflow. */
static void loss_before_record(evt_rkh_recorder *r)
{
    if (EVT_LOAD_RLX(&r->loss.dropped) != r->drops_seen || ((r->head & HEAD_DRAINED) && r->size - r->qty >= LOSS_MAX) ||
        r->evicted >= r->size)
        write_loss(r);
}

/* Take up to *n contiguous bytes from the oldest end (lock held). */
static const uint8_t *take_block(evt_rkh_recorder *r, uint32_t *n)
{
    uint32_t run = r->size - r->out;
    if (run > r->qty) run = r->qty;
    if (run > *n) run = *n;
    const uint8_t *p = r->ring + r->out;
    if (EVT_RKH_FLIGHT && run) {
        /* The new head: a record start whose flag left, or inside a record (whose id is the byte
         * after the last flag taken, or, with no flag in the run, the one known before). */
        uint8_t last = p[run - 1u], h = r->head;
        int partial_data = (h & HEAD_PARTIAL) ? (h & HEAD_PDATA) != 0u : ((h & HEAD_START) && is_data_id(p[0]));
        for (uint32_t k = run; k-- > 0;) {
            if (p[k] == RKH_FLAG) {
                partial_data = k + 1u < run ? is_data_id(p[k + 1u]) : 0;
                break;
            }
        }
        h = last == RKH_FLAG ? HEAD_START : partial_data ? HEAD_PARTIAL | HEAD_PDATA : HEAD_PARTIAL;
        r->head = (uint8_t)(h | HEAD_DRAINED | (last == RKH_ESC ? HEAD_ESC : 0u));
        ow_move(r); /* a drain: the loss record may be due (R4) */
        if ((r->lr & EVT_RKH_LR_LIVE) && in_run(r, r->out, run, r->lr_at)) r->lr = EVT_RKH_LR_DRAIN;
    }
    r->out += run;
    if (r->out == r->size) r->out = 0;
    r->qty -= run;
    *n = run;
    return p;
}

/* Pass every ring byte to the sink, then the pending loss record if any (lock held, guard set). */
RKH_COLD void evt_rkh_drain_(evt_rkh_recorder *r)
{
    for (int round = 0; round < 2; round++) {
        while (r->qty) {
            uint32_t n = r->qty;
            const uint8_t *p = take_block(r, &n);
            r->sink(r->sink_user, p, n);
        }
        if (EVT_LIKELY(!evt_loss_pending(&r->loss))) return;
        write_loss(r);
    }
}

/* Enter the recorder for a drain or a flush: lock and guard (or the owner's flag, O2), or 0
 * (nested: nothing done). */
static int enter(evt_rkh_recorder *r, evt_port_crit_t *st) { return evt_rkh_enter_(r, st); }
static void leave(evt_rkh_recorder *r, evt_port_crit_t st) { evt_rkh_exit_(r, st); }

/* ---- thread ownership (O1-O6) ------------------------------------------------------------------ */

#if EVT_RKH_OWNED
_Thread_local uint32_t evt_rkh_obusy_;

/* Every entry but the owner's own (O2): the lock and its guard, then, on an owned recorder, O4 for
 * the owner (a claim was in progress when it looked, or own changed under it) or O3 for any other
 * thread. */
RKH_COLD evt_port_crit_t evt_rkh_enter_slow_(evt_rkh_recorder *r)
{
    evt_port_crit_t ls;
    if (!evt_rec_lock_enter(&r->lock, &ls)) return EVT_RKH_ST_REFUSED;
    if (!evt_rec_guard_enter(&r->nest, ls)) {
        evt_rec_lock_exit(&r->lock, ls);
        return EVT_RKH_ST_REFUSED;
    }
    return evt_rkh_enter_locked_(r, ls);
}

/* The lock and its guard held (ls: the lock's state): O4, O3 or a plain entry. */
RKH_COLD evt_port_crit_t evt_rkh_enter_locked_(evt_rkh_recorder *r, evt_port_crit_t ls)
{
    uintptr_t own = EVT_LOAD_ACQ(&r->own); /* stable here (O1); acquire: set_owner */
    if (own == (uintptr_t)&evt_rkh_obusy_) {
        /* O4: the owner through the lock. No claim can be in progress (claims are made under the
           lock); the flag keeps its own handlers out, as in O2. A handler that landed before this
           store found the flag 0 and no claim: it wrote its whole record on its own, before us. */
        if (evt_rkh_obusy_ != 0u) goto refused; /* inside another recorder this thread owns */
        EVT_STORE_RLX(&evt_rkh_obusy_, 1u);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        return ls | EVT_RKH_ST_OWNLK;
    }
    if (own != 0u) {
        /* O3: claim, then wait for the owner's record in progress: without bound when this
           thread owns no other lock and is inside no recorder it owns (the owner needs nothing
           of it to finish, and only the lock holder waits here), else bounded as a nested
           context's wait, as is a fork child's whose owner did not survive */
        EVT_STORE_RLX(&r->claim, 1u);
        (void)evt_posix_membarrier();
        const evt_port_lock *l = evt_rkh_obusy_ ? NULL : &r->lock;
        unsigned steps = 0;
        while (EVT_LOAD_ACQ((const uint32_t *)own) != 0u) {
            if (evt_posix_wait_step_holding(&steps, l)) {
                EVT_STORE_REL(&r->claim, 0u);
                goto refused;
            }
        }
        return ls | EVT_RKH_ST_CLAIM;
    }
    return ls;
refused:
    evt_rec_guard_exit(&r->nest);
    evt_rec_lock_exit(&r->lock, ls);
    return EVT_RKH_ST_REFUSED;
}

RKH_COLD void evt_rkh_exit_slow_(evt_rkh_recorder *r, evt_port_crit_t st)
{
    if (st & EVT_RKH_ST_OWNLK) EVT_STORE_REL(&evt_rkh_obusy_, 0u);
    if (st & EVT_RKH_ST_CLAIM) EVT_STORE_REL(&r->claim, 0u);
    evt_rec_guard_exit(&r->nest);
    evt_rec_lock_exit(&r->lock, st & 3u);
}

/* Change the owner (O1): inside the lock with the claim held, or, for the owner itself, inside
 * its own entry (no record of it can be open: this is it). */
static int set_owner(evt_rkh_recorder *r, uintptr_t own)
{
    evt_port_crit_t st;
    if (!enter(r, &st)) return 0;
    /* release: a thread that then finds 0 and takes the lock alone sees the owner's records */
    EVT_STORE_REL(&r->own, own);
    leave(r, st); /* as entered: the owner's flag (O2, O4), the claim (O3) or the lock */
    return 1;
}

/* O6: the recorders this thread took (some may have been taken from it since): its exit gives up
 * those it still owns; its own evt_rkh_disown frees the place (so a recorder it gave up may go
 * away). A place is taken with a compare-and-swap (a signal handler's evt_rkh_own may run in
 * between). */
#define OWN_MAX 8u
static _Thread_local evt_rkh_recorder *t_owned[OWN_MAX];
static int owned_here(const evt_rkh_recorder *r) { return EVT_LOAD_RLX(&r->own) == (uintptr_t)&evt_rkh_obusy_; }
static void owner_exit(void)
{
    for (unsigned i = 0; i < OWN_MAX; i++) {
        evt_rkh_recorder *r = __atomic_exchange_n(&t_owned[i], NULL, __ATOMIC_RELAXED);
        if (!r || !owned_here(r) || !set_owner(r, 0u)) continue;
        /* then once through the lock: a claimer that read own before it was given up (and so
           reads this thread's flag in its wait) has left the lock, and the flag may go */
        evt_port_crit_t st;
        if (enter(r, &st)) leave(r, st);
    }
}
static const evt_posix_exit_fn k_owner_exit = {owner_exit};

int evt_rkh_own(evt_rkh_recorder *r)
{
    if (!r->size || !evt_posix_membarrier_ready()) return 0; /* O3 needs the process-wide barrier */
    unsigned i = 0;
    for (; i < OWN_MAX; i++) { /* r's place, or a free one, or one whose recorder is not ours now */
        evt_rkh_recorder *o = __atomic_load_n(&t_owned[i], __ATOMIC_RELAXED);
        if (o == r) break;
        if ((!o || !owned_here(o)) &&
            __atomic_compare_exchange_n(&t_owned[i], &o, r, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            break;
    }
    if (i == OWN_MAX) return 0; /* OWN_MAX recorders owned already */
    if (!set_owner(r, (uintptr_t)&evt_rkh_obusy_)) return 0; /* (its place is reused by the next call) */
    evt_posix_on_thread_exit(&k_owner_exit);
    return 1;
}
void evt_rkh_disown(evt_rkh_recorder *r)
{
    (void)set_owner(r, 0u);
    for (unsigned i = 0; i < OWN_MAX; i++) { /* the caller's place for r, if it took r (O6) */
        evt_rkh_recorder *o = r;
        if (__atomic_compare_exchange_n(&t_owned[i], &o, NULL, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
    }
}
#else
int evt_rkh_own(evt_rkh_recorder *r)
{
    (void)r;
    return 0;
}
void evt_rkh_disown(evt_rkh_recorder *r) { (void)r; }
#endif

/* ---- configuration and init -------------------------------------------------------------------- */

void evt_rkh_config_default(evt_rkh_config *c)
{
    c->flags = 0x3FFFFu;
    c->version = 0x3400u;
    c->sz_sig = 1; c->sz_ts = 4; c->sz_ptr = 4; c->sz_fun = 4; c->sz_ntimer = 1;
    c->sz_nblock = 1; c->sz_nelem = 1; c->sz_esize = 1; c->sz_bsize = 1; c->max_pool = 0;
}

/* Compile-time group switches (TCFG flags): is group g built in? */
static int group_built(const evt_rkh_config *c, unsigned g)
{
    static const uint32_t need[8] = {EVT_RKH_F_TRC_MP_EN, EVT_RKH_F_TRC_QUE_EN, EVT_RKH_F_TRC_SMA_EN,
                                     EVT_RKH_F_TRC_SM_EN, EVT_RKH_F_TRC_TMR_EN, EVT_RKH_F_TRC_FWK_EN,
                                     EVT_RKH_F_TRC_USER_TRACE_EN, 0u};
    return (c->flags & EVT_RKH_F_TRC_ALL_EN) || need[g & 7u] == 0u || (c->flags & need[g & 7u]);
}

/* The hot filter table (emit) from the configuration and the group/event filters (lock held or
 * not yet shared). Each cell is published with a relaxed atomic: the inline begin reads it with a
 * relaxed load, outside the lock. A signal handler on the thread that holds the lock re-enters it
 * (P2) and may change a filter and publish between this loop's loads and its store. So a cell is
 * replaced only by a CAS from the value read before the inputs, and every publish bumps the
 * cell's count (bits 8-31): a handler that published the cell since it was read makes the CAS
 * fail, the inputs are read again, and a handler's newer mask is never overwritten, not even for
 * a moment. Comparing the mask alone was not enough: two handler runs that flip a bit and flip it
 * back leave the mask as read (ABA), and the stale mask then stood until the loop's re-check
 * (test_rkh_filter_isr_mt: about 1 run in 10 under TSan on a loaded machine). */
static inline int emit_replace(uint32_t *p, uint32_t seen, uint32_t mask)
{
    uint32_t v = ((seen + 0x100u) & ~0xFFu) | mask;
#if (defined(__GNUC__) || defined(__clang__)) && EVT_PORT_LOCK_MAY_FAIL
    /* release: the filter bits read before it go with it (FILTER_FN's lock-less case) */
    return __atomic_compare_exchange_n(p, &seen, v, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
#else
    (void)seen; /* single-core targets (a lock that never fails): the lock masks interrupts,
                   nothing nests here */
    EVT_STORE_RLX(p, v);
    return 1;
#endif
}
/* The recorder's own records, TCFG and the loss record: no begin may pass their ids (a record of
 * the application with one of them reads back as a broken TCFG or loss record: reader errors,
 * the record gone, not counted). Filtered, never issued: publish_emit keeps their emit bits 0. */
static int reserved_id(unsigned id) { return id == RKH_TE_TCFG || id == EVT_RKH_TE_LOST; }
static void publish_emit(evt_rkh_recorder *r)
{
    int rtfil = (r->cfg.flags & EVT_RKH_F_TRC_RTFIL_EN) != 0;
    for (unsigned b = 0; b < 32u; b++) {
        unsigned g = b >> 2;
        uint32_t seen, mask;
        uint8_t grp, ev;
        do {
            seen = EVT_LOAD_ACQ(&r->emit[b]); /* the inputs after the cell (and after the bits
                                                 the publish that wrote it read) */
            grp = EVT_LOAD_RLX(&r->grp_filter);
            ev = EVT_LOAD_RLX(&r->ev_filter[b]);
            /* no ring (r->size 0): every record filtered, whatever the filters say */
            if (!r->size || !group_built(&r->cfg, g)) mask = 0u;
            else if (!rtfil) mask = 0xFFu;
            else mask = ((grp >> g) & 1u) ? ev : 0u;
            if (b == RKH_TE_TCFG >> 3) mask &= ~(1u << (RKH_TE_TCFG & 7u));
            if (b == EVT_RKH_TE_LOST >> 3) mask &= ~(1u << (EVT_RKH_TE_LOST & 7u));
        } while (!emit_replace(&r->emit[b], seen, mask));
    }
}

static void fill(uint8_t *p, unsigned n, uint8_t v)
{
    for (unsigned i = 0; i < n; i++) EVT_STORE_RLX(&p[i], v);
}

static void filter_all_locked(evt_rkh_recorder *r, int emit)
{
    uint8_t v = emit ? 0xFFu : 0u;
    EVT_STORE_RLX(&r->grp_filter, v);
    fill(r->ev_filter, sizeof r->ev_filter, v);
    fill(r->ao_filter, sizeof r->ao_filter, v);
    fill(r->sig_filter, sizeof r->sig_filter, v);
    publish_emit(r);
}

/* The timestamp source and the core's 32-bit clock over it (the callback taken as it is). */
static inline void set_ts_(evt_rkh_recorder *r, evt_rkh_ts_fn ts)
{
    r->ts = ts;
    r->clock.fn = ts;
}

void evt_rkh_set_ts(evt_rkh_recorder *r, evt_rkh_ts_fn ts) { set_ts_(r, ts); }

void evt_rkh_init(evt_rkh_recorder *r, const evt_rkh_config *cfg, uint8_t *ring, uint32_t ring_size,
                  evt_rkh_ts_fn ts, uint32_t ts_hz)
{
    evt_rec_lock fresh = EVT_REC_LOCK_INIT;
    /* Every member 0 first (the recorder is not shared yet), then the ones that are not. A byte
     * loop: no memset on a no-libc target (GCC keeps it a loop there). */
    for (uint32_t i = 0; i < sizeof *r; i++) ((uint8_t *)r)[i] = 0;
    r->lock = fresh;
    r->cfg = *cfg;
    /* Fields are at most 4 bytes (a larger size, e.g. an 8-byte timestamp, is written as 4), and
     * pointers are 2 or 4 bytes (RKH's SYM/FUN rule: 16 bits -> 2, anything else -> 4, so an
     * 8-byte or 1-byte pointer is written as 4): the TCFG record says what is written. */
    uint8_t *cb = (uint8_t *)&r->cfg; /* the size bytes, in a row (pointers: fixed below) */
    for (size_t i = offsetof(evt_rkh_config, sz_sig); i <= offsetof(evt_rkh_config, sz_bsize); i++)
        if (cb[i] > 4u) cb[i] = 4u;
    if (r->cfg.sz_ptr != 2u) r->cfg.sz_ptr = 4u;
    if (r->cfg.sz_fun != 2u) r->cfg.sz_fun = 4u;
    cfg = &r->cfg;
    r->ring = ring;
    /* no ring (NULL or size 0): an inert recorder, see publish_emit; ring indices stay below 2^31 */
    r->size = !ring ? 0u : ring_size > 0x7FFFFFFFu ? 0x7FFFFFFFu : ring_size;
    if (EVT_RKH_FAST) r->lim0 = r->size < ROOM_CAP ? r->size : ROOM_CAP;
    set_ts_(r, ts);
    uint32_t f = cfg->flags;
    r->ao_test = (f & EVT_RKH_F_TRC_RTFIL_EN) && (f & EVT_RKH_F_TRC_RTFIL_SMA_EN);
    r->sig_test = (f & EVT_RKH_F_TRC_RTFIL_EN) && (f & EVT_RKH_F_TRC_RTFIL_SIGNAL_EN);
    r->chk_en = (f & EVT_RKH_F_TRC_CHK_EN) != 0;
    r->hdr6 = (f & EVT_RKH_F_TRC_NSEQ_EN) && (f & EVT_RKH_F_TRC_TSTAMP_EN) && cfg->sz_ts >= 4u && ts;
    filter_all_locked(r, 0); /* RKH: static tables, everything suppressed until turned on */
    if (!r->size) return;
    put_raw(r, RKH_FLAG);
    /* TCFG: default begin (no filter, no seq, no timestamp), checksum if enabled. */
    if ((cfg->flags & (EVT_RKH_F_TRC_FWK_EN | EVT_RKH_F_TRC_ALL_EN)) == 0) return;
    start_record(r);
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
    evt_port_crit_t st;
    if (!enter(r, &st)) return;
    r->sink = fn;
    r->sink_user = user;
    if (fn) evt_rkh_drain_(r);
    leave(r, st);
}

void evt_rkh_flush(evt_rkh_recorder *r)
{
    evt_port_crit_t st;
    if (!enter(r, &st)) return;
    write_loss(r);
    if (r->sink) evt_rkh_drain_(r);
    leave(r, st);
}

void evt_rkh_get_stats(const evt_rkh_recorder *r, evt_rec_stats *out)
{
    /* Under the lock when it can be had (a consistent snapshot; TSan-clean), else a moment old. */
    evt_rkh_recorder *w = (evt_rkh_recorder *)(uintptr_t)r; /* the lock word (and the claim) only */
    evt_port_crit_t st;
#if EVT_RKH_OWNED
    /* ow_pend is an owner's, written without the lock (O2): entered as a drain is, whether or not
       the recorder is owned now (evt_rkh_enter_ tests own again once it holds the lock; before 3
       Dec 2026 a recorder seen unowned was read under the lock only, and an evt_rkh_own between
       that test and the lock let the new owner write ow_pend meanwhile: a TSan data race) */
    int locked = evt_rkh_enter_(w, &st);
#else
    int locked = evt_rec_lock_enter(&w->lock, &st);
#endif
    evt_loss_stats(&r->loss, out);
    if (locked) {
        out->overwritten += r->ow_pend; /* overwritten, pending, not yet in the account */
        out->pending += r->ow_pend;
#if EVT_RKH_OWNED
        evt_rkh_exit_(w, st);
#else
        evt_rec_lock_exit(&w->lock, st);
#endif
    }
}

void evt_rkh_get_rec_stats(const evt_rkh_recorder *r, evt_rec_stats *out) { evt_rkh_get_stats(r, out); }

/* A drain that finds the ring empty first appends the pending loss record (R4). */
static void drained(evt_rkh_recorder *r)
{
    if (!r->qty) write_loss(r);
}

int evt_rkh_get_byte(evt_rkh_recorder *r, uint8_t *b)
{
    evt_port_crit_t st;
    if (!enter(r, &st)) return 0;
    uint32_t n = 1;
    drained(r);
    const uint8_t *p = take_block(r, &n);
    if (n) *b = *p;
    leave(r, st);
    return n != 0;
}

const uint8_t *evt_rkh_get_block(evt_rkh_recorder *r, uint32_t *n)
{
    evt_port_crit_t st;
    if (!enter(r, &st)) { *n = 0; return r->ring; }
    /* The pending loss record of an emptied ring is written by the next call, not this one: the
     * block returned must stay intact until the caller asks for more. */
    if (*n) drained(r);
    const uint8_t *p = take_block(r, n);
    leave(r, st);
    return p;
}

uint32_t evt_rkh_get_whole_block(evt_rkh_recorder *r, uint8_t *dst, uint32_t n)
{
    evt_port_crit_t st;
    if (!enter(r, &st)) return 0;
    uint32_t k = 0;
    while (k < n) {
        drained(r);
        if (!r->qty) break;
        uint32_t m = n - k;
        const uint8_t *p = take_block(r, &m);
        for (uint32_t i = 0; i < m; i++) dst[k + i] = p[i];
        k += m;
    }
    leave(r, st);
    return k;
}

/* ---- filters ----------------------------------------------------------------------------------- */

/* One filter bit, by an atomic read-modify-write of its byte: a signal handler on the thread that
 * holds the lock re-enters it (P2) and may change a bit of the same byte between a load and a
 * store, which a plain read-modify-write would undo. (Without GCC/Clang atomics, or on a port
 * whose lock never fails: single-core
 * targets, where the lock masks interrupts.) */
static void bit_set(uint8_t *t, unsigned i, int on)
{
    uint8_t m = (uint8_t)(1u << (i & 7u));
#if (defined(__GNUC__) || defined(__clang__)) && EVT_PORT_LOCK_MAY_FAIL
    if (on) (void)__atomic_fetch_or(&t[i >> 3], m, __ATOMIC_RELAXED);
    else (void)__atomic_fetch_and(&t[i >> 3], (uint8_t)~m, __ATOMIC_RELAXED);
#else
    uint8_t v = EVT_LOAD_RLX(&t[i >> 3]);
    EVT_STORE_RLX(&t[i >> 3], on ? (uint8_t)(v | m) : (uint8_t)(v & ~m));
#endif
}

/* Each filter change runs under the recorder's lock and republishes the hot table. A nested
 * context that could not take the lock (P3: its thread is inside another section and another
 * thread holds this one) makes the change anyway rather than lose it: with GCC/Clang atomics a
 * bit change is one atomic read-modify-write and publish_emit a CAS on versioned cells, both
 * correct without the lock (without them the port's lock masks interrupts and never fails). */
#define FILTER_FN(name, body)                                                                       \
    void name(evt_rkh_recorder *r, unsigned x)                                                      \
    {                                                                                               \
        evt_port_crit_t st;                                                                         \
        int locked = evt_rec_lock_enter(&r->lock, &st);                                             \
        body;                                                                                       \
        publish_emit(r);                                                                            \
        if (locked) evt_rec_lock_exit(&r->lock, st);                                                \
    }

static void group_events(evt_rkh_recorder *r, unsigned g, int on)
{
    bit_set(&r->grp_filter, g & 7u, on);
    for (unsigned e = 0; e < 32; e++) bit_set(r->ev_filter, ((g & 7u) << 5) | e, on);
}

FILTER_FN(evt_rkh_filter_on_group, bit_set(&r->grp_filter, x & 7u, 0))
FILTER_FN(evt_rkh_filter_off_group, bit_set(&r->grp_filter, x & 7u, 1))
FILTER_FN(evt_rkh_filter_on_group_all_events, group_events(r, x, 0))
FILTER_FN(evt_rkh_filter_off_group_all_events, group_events(r, x, 1))
FILTER_FN(evt_rkh_filter_on_event, bit_set(r->ev_filter, x & 255u, 0))
FILTER_FN(evt_rkh_filter_off_event, (bit_set(r->ev_filter, x & 255u, 1), bit_set(&r->grp_filter, (x & 255u) >> 5, 1)))
FILTER_FN(evt_rkh_filter_on_sma, bit_set(r->ao_filter, x & 63u, 0))
FILTER_FN(evt_rkh_filter_off_sma, bit_set(r->ao_filter, x & 63u, 1))
FILTER_FN(evt_rkh_filter_on_signal, bit_set(r->sig_filter, x & 255u, 0))
FILTER_FN(evt_rkh_filter_off_signal, bit_set(r->sig_filter, x & 255u, 1))

void evt_rkh_filter_all(evt_rkh_recorder *r, int emit)
{
    evt_port_crit_t st;
    int locked = evt_rec_lock_enter(&r->lock, &st); /* without it: as FILTER_FN */
    filter_all_locked(r, emit);
    if (locked) evt_rec_lock_exit(&r->lock, st);
}

/* ---- records ----------------------------------------------------------------------------------- */


/* The contiguous free room from in (qty exact); capped: the part of a room one record may use. */
static inline uint32_t free_room(const evt_rkh_recorder *r, uint32_t in)
{
    uint32_t room = r->size - r->qty, contig = r->size - in;
    return contig < room ? contig : room;
}
static inline uint32_t capped(uint32_t room) { return room < ROOM_CAP ? room : ROOM_CAP; }

/* Before a slow path writes into the open record: bring qty up to date from the fast paths'
 * cursor, the record's start and sequence number (open != 2, lim != 0: only fast paths ran so far; the
 * header took a sequence number when NSEQ is on), and fold the checksum to one byte. */
static void slow_begin(evt_rkh_recorder *r)
{
    if (!EVT_RKH_FAST) return; /* qty, open_at and sum are always exact */
    if (r->open != 2u && r->lim) { /* only fast paths wrote the record so far */
        r->open_at = r->mark;
        r->qty_open = r->qty; /* still as of mark */
        r->seq_open = (uint8_t)(r->seq - ((r->cfg.flags & EVT_RKH_F_TRC_NSEQ_EN) != 0u));
        r->open = 2;
    }
    r->qty += r->in - r->mark; /* fast paths never wrap: in >= mark */
    r->mark = r->in;
    uint32_t s = r->sum + r->tsum; /* the lanes of a record the inline open began */
    r->sum = (uint8_t)(s + (s >> 16));
    r->tsum = 0;
}

/* After a slow path: the fast room again (none once the record is truncated), and fend (R7: the
 * slow path may have moved in anywhere, across the ring's end too). */
static void slow_end(evt_rkh_recorder *r)
{
    if (!EVT_RKH_FAST) return; /* no fast room: lim stays 0 */
    uint32_t in = r->in, room = r->trunc ? 0u : free_room(r, in);
    r->mark = in;
    r->fend = in + room;
    r->lim = in + capped(room);
}

#if EVT_RKH_FAST
/* Make room before a record when its fast room is short (qty is exact: no record byte yet).
 * Evicts without truncating: a record that still finds no room takes the slow paths. */
static void open_make_room(evt_rkh_recorder *r, uint8_t seq0)
{
#if !EVT_RKH_FLIGHT
    (void)r; (void)seq0; /* nothing to evict: a record short of room is dropped at end */
#else
    uint32_t ahead = evict_ahead(r);
    uint32_t want = OPEN_ROOM + ahead < r->size ? OPEN_ROOM + ahead : r->size;
    if (r->size - r->qty >= want) return;
    if (!(r->cfg.flags & EVT_RKH_F_TRC_NSEQ_EN) || !evict_by_seq(r, want, seq0)) evict(r, want);
#endif
}

/* Write the header w (n bytes) by the slow path, from the record's start; seq0 is the sequence
 * number before it (restored if the record is discarded). */
static RKH_COLD void open_slow(evt_rkh_recorder *r, uint64_t w, unsigned n, uint8_t seq0)
{
    if (capped(free_room(r, r->in)) < OPEN_ROOM) open_make_room(r, seq0);
    r->sum = 0;
    r->tsum = 0;
    r->open_at = r->in;
    r->qty_open = r->qty;
    r->seq_open = seq0;
    r->open = 2;
    if (!put_word_fast(r, w, n)) {
        uint8_t h[6];
        for (unsigned i = 0; i < n; i++) h[i] = (uint8_t)(w >> (8u * i));
        put_bytes(r, h, n);
    }
    slow_end(r);
}
#endif

/* The header of the other configurations (no seq, no timestamp, a 1- or 2-byte one). */
static RKH_COLD void open_general(evt_rkh_recorder *r, unsigned id)
{
#if !EVT_RKH_FAST
    /* every header byte through put_u8 (room made as needed), no 64-bit word */
    start_record(r);
    r->open = 2;
    put_u8(r, (uint8_t)id);
    uint32_t fl = r->cfg.flags;
    if (fl & EVT_RKH_F_TRC_NSEQ_EN) put_u8(r, r->seq++);
    if (fl & EVT_RKH_F_TRC_TSTAMP_EN) put_n(r, r->ts ? evt_clock32_read(&r->clock) : 0u, r->cfg.sz_ts);
#else
    uint8_t seq0 = r->seq;
    uint64_t w = (uint8_t)id;
    unsigned n = 1;
    uint32_t f = r->cfg.flags;
    if (f & EVT_RKH_F_TRC_NSEQ_EN) w |= (uint64_t)r->seq++ << (8u * n++);
    if (f & EVT_RKH_F_TRC_TSTAMP_EN) {
        unsigned tsz = r->cfg.sz_ts < 4u ? r->cfg.sz_ts : 4u;
        uint32_t t = r->ts ? evt_clock32_read(&r->clock) : 0u;
        if (tsz < 4u) t &= ((uint32_t)1 << (8u * tsz)) - 1u;
        w |= (uint64_t)t << (8u * n);
        n += tsz;
    }
    open_slow(r, w, n, seq0);
#endif
}

#if EVT_RKH_FAST
static RKH_COLD int header6_after_room(evt_rkh_recorder *r, unsigned id, uint32_t t);

/* The low n bytes of w, little-endian, stuffed, at q (up to 2 n bytes): returns the count. The
 * fast paths' writers use it for a value with a byte to stuff (no checksum: the lanes add the
 * unstuffed value). */
static RKH_COLD uint32_t stuff_bytes(uint8_t *q, uint64_t w, unsigned n)
{
    uint8_t *q0 = q;
    for (; n > 0; n--, w >>= 8) {
        uint8_t c = (uint8_t)w;
        if ((uint8_t)(c - RKH_ESC) < 2u) { /* RKH_ESC, RKH_FLAG (checked below) */
            *q++ = RKH_ESC;
            c = (uint8_t)(c ^ RKH_ESC_XOR);
        }
        *q++ = c;
    }
    return (uint32_t)(q - q0);
}

/* The fast paths' state after the default header w (sum: its lanes) was written at in, n bytes
 * with the escapes, into contiguous room (R6). */
static inline int header6_done(evt_rkh_recorder *r, uint32_t in, uint32_t n, uint32_t room, uint32_t sum)
{
    r->sum = sum;
    r->tsum = 0;
    r->mark = in;
    r->in = in + n;
    r->lim = in + room;
    return 1;
}

/* The default header when one of its bytes needs stuffing (a timestamp or sequence byte
 * 0x7D/0x7E: 2.7% of bench_instr's records), byte by byte into the fast room (at most 12 bytes): the record stays
 * on the fast paths. */
static RKH_COLD int header6_stuffed(evt_rkh_recorder *r, uint64_t w, uint32_t in, uint32_t room, uint32_t sum)
{
    return header6_done(r, in, stuff_bytes(r->ring + in, w, 6u), room, sum);
}

/* The default header (hdr6: id, seq, 4-byte timestamp t) as one 8-byte store (the two bytes past
 * it land in the room) at in, with `room` (>= 8) bytes of fast room, when no header byte needs
 * stuffing; else stuffed, into the fast room, or by the slow path. */
static inline int header6_at(evt_rkh_recorder *r, unsigned id, uint32_t t, uint32_t in, uint32_t room)
{
    uint32_t seq = r->seq;
    uint64_t w = (uint8_t)id | seq << 8 | (uint64_t)t << 16;
    /* bytes to stuff (0x7D, 0x7E: a = 3, 0) are the zero bytes of a ^ 3 * (a & 1) */
    uint64_t a = w ^ 0x7E7E7E7E7E7E7E7Eull, x = a ^ (a & 0x0101010101010101ull) * 3u;
    uint32_t sum = (uint8_t)id + seq + (t & 0x00FF00FFu) + ((t >> 8) & 0x00FF00FFu);
    r->seq = (uint8_t)(seq + 1u);
    if (EVT_LIKELY(!((x - 0x0101010101010101ull) & ~x & 0x0000808080808080ull))) {
        uint8_t *q = r->ring + in;
        EVT_RKH_ST32LE_(q, (uint32_t)w);
        EVT_RKH_ST32LE_(q + 4, (uint32_t)(w >> 32));
        return header6_done(r, in, 6u, room, sum);
    }
    if (room >= 12u) return header6_stuffed(r, w, in, room, sum);
    open_slow(r, w, 6u, (uint8_t)seq); /* no room */
    return 1;
}

/* The default header with the room end's fast close left (nlim): at least OPEN_ROOM bytes there,
 * else header6_after_room works the room out. */
static inline int header6(evt_rkh_recorder *r, unsigned id, uint32_t t)
{
    uint32_t in = r->in, lim = r->nlim;
    if (EVT_UNLIKELY(lim < in + OPEN_ROOM)) return header6_after_room(r, id, t);
    return header6_at(r, id, t, in, lim - in);
}

/* header6 when nlim is short or not known: the room from the ring's state; a room short of
 * OPEN_ROOM is made first (a flight ring evicts a batch). With less than 8 bytes the slow path. */
static RKH_COLD int header6_after_room(evt_rkh_recorder *r, unsigned id, uint32_t t)
{
    uint32_t in = r->in, room = free_room(r, in);
    if (room < OPEN_ROOM) {
        open_make_room(r, r->seq);
        room = free_room(r, in);
    }
    r->fend = in + room; /* R7 (a slow header's slow_end sets it again) */
    if (room >= 8u) return header6_at(r, id, t, in, capped(room));
    uint8_t seq = r->seq;
    r->seq = (uint8_t)(seq + 1u);
    open_slow(r, (uint8_t)id | (uint64_t)seq << 8 | (uint64_t)t << 16, 6u, seq);
    return 1;
}
#endif /* EVT_RKH_FAST */

/* The body of every begin once the filters passed (R3, R4). The default header (hdr6: id, seq,
 * 4-byte timestamp) with fast room is one 8-byte store (the two bytes past it land in the room);
 * qty, open_at and seq_open are left for end or a slow path (open stays 0, lim != 0: R6). */
int evt_rkh_open_(evt_rkh_recorder *r, unsigned id)
{
    evt_port_crit_t st;
    if (EVT_UNLIKELY(!evt_rkh_enter_(r, &st))) { evt_loss_drop(&r->loss); return 0; }
    r->crit = st;
    if (EVT_UNLIKELY(evt_loss_pending(&r->loss))) loss_before_record(r);
#if EVT_RKH_FAST
    if (EVT_LIKELY(r->hdr6)) {
        uint32_t t = r->ts(); /* hdr6: ts is set (the clock would call it); first: fewer values
                                 live across the call */
        return header6(r, id, t);
    }
#endif
    open_general(r, id);
    return 1;
}

#ifdef EVT_RKH_INLINE_OPEN
/* evt_rkh_open_ after the lock and the guard: the inline open of evtrace/rkh.h calls it when
 * losses are pending or the header is not the default one. */
RKH_COLD int evt_rkh_open_rest_(evt_rkh_recorder *r, unsigned id)
{
    if (evt_loss_pending(&r->loss)) loss_before_record(r);
    if (EVT_LIKELY(r->hdr6)) return header6(r, id, r->ts());
    open_general(r, id);
    return 1;
}

/* The default header when the inline open's fast test failed (the room left by the last record
 * is short or not known, or a header byte needs stuffing). */
RKH_COLD int evt_rkh_hdr6_(evt_rkh_recorder *r, unsigned id, uint32_t t) { return header6_after_room(r, id, t); }
/* ... when a byte of the header needs stuffing and the room is there (seq already taken). */
RKH_COLD int evt_rkh_hdr6_stuffed_(evt_rkh_recorder *r, uint64_t w, uint32_t in, uint32_t room, uint32_t sum)
{
    return header6_stuffed(r, w, in, room, sum);
}
#endif

#ifdef EVT_RKH_INLINE_FAST
/* The external definitions of the C99 inline functions of evtrace/rkh.h. */
extern int (evt_rkh_begin_ao_sig)(evt_rkh_recorder *r, unsigned id, int prio, int sig);
extern int (evt_rkh_begin)(evt_rkh_recorder *r, unsigned id);
extern int (evt_rkh_begin_ao)(evt_rkh_recorder *r, unsigned id, int prio);
#else
static int bit_get(const uint8_t *t, unsigned i) { return (EVT_LOAD_RLX(&t[i >> 3]) >> (i & 7u)) & 1u; }
int evt_rkh_begin_ao_sig(evt_rkh_recorder *r, unsigned id, int prio, int sig)
{
    id &= 255u;
    if (!((EVT_LOAD_RLX(&r->emit[id >> 3]) >> (id & 7u)) & 1u)) return 0;
    if (prio >= 0 && r->ao_test && !bit_get(r->ao_filter, (unsigned)prio & 63u)) return 0;
    if (sig >= 0 && r->sig_test && !bit_get(r->sig_filter, (unsigned)sig & 255u)) return 0;
    return evt_rkh_open_(r, id);
}
int evt_rkh_begin(evt_rkh_recorder *r, unsigned id) { return evt_rkh_begin_ao_sig(r, id, -1, -1); }
int evt_rkh_begin_ao(evt_rkh_recorder *r, unsigned id, int prio) { return evt_rkh_begin_ao_sig(r, id, prio, -1); }
#endif

int evt_rkh_begin_nofilt(evt_rkh_recorder *r, unsigned id)
{
    if (!r->size || !group_built(&r->cfg, (id & 255u) >> 5) || reserved_id(id & 255u)) return 0; /* as publish_emit */
    return evt_rkh_open_(r, id & 255u);
}

/* The close after a slow path ran (or without the room): returns 1 if the record is in the
 * ring, 0 if it was discarded (R2). */
static RKH_COLD int close_slow(evt_rkh_recorder *r)
{
    slow_begin(r);
    return close_record(r);
}

/* end when the fast close (evtrace/rkh.h) does not apply: no record open (lim is 0 and open is 0:
 * a record only fast paths wrote has lim != 0, R6), a slow path truncated it, or the room is short. Returns 0 when no record was open (nothing to release). */
RKH_COLD int evt_rkh_end_slow_(evt_rkh_recorder *r)
{
    if (!r->open && !r->lim) return 0;
    if (EVT_RKH_FAST) r->nlim = 0; /* the next begin works its room out */
    if (close_slow(r)) evt_loss_written(&r->loss, 1u);
    else evt_loss_drop(&r->loss); /* larger than the ring (R2) */
    r->open = 0;
    r->lim = 0;
    if (r->sink) evt_rkh_drain_(r);
    return 1;
}

#if EVT_RKH_FAST
void (evt_rkh_end)(evt_rkh_recorder *r) { evt_rkh_end_body_(r); } /* (): not the inline macro */
#else
void evt_rkh_end(evt_rkh_recorder *r)
{
    evt_port_crit_t st = r->crit; /* read before the guard opens: a handler may record after it */
    if (!evt_rkh_end_slow_(r)) return; /* no record open */
    evt_rkh_exit_(r, st);
}
#endif

/* A field of n <= 4 bytes (v's bytes above them 0): the fast path as the inline writers of
 * evtrace/rkh.h (one 4-byte store, the bytes past n land in the room), else the slow one. */
#if EVT_RKH_FAST
static void put_slow(evt_rkh_recorder *r, uint32_t v, unsigned n)
{
    slow_begin(r);
    put_n(r, v, n);
    slow_end(r);
}
/* field when its fast test failed: a value with a byte in 0x7C..0x7F (0x7D, 0x7E stuffed), or the
 * room short of 4 + 3 bytes. With room for every byte escaped and the close, the field goes into
 * the fast room and the record stays on the fast paths (R6); else the slow path. */
static RKH_COLD void put_stuffed(evt_rkh_recorder *r, uint32_t v, unsigned n)
{
    uint32_t in = r->in;
    if (in + 2u * n + 3u <= r->lim) {
        r->sum += (v & 0x00FF00FFu) + ((v >> 8) & 0x00FF00FFu);
        r->in = in + stuff_bytes(r->ring + in, v, n);
        return;
    }
    put_slow(r, v, n);
}
static inline void field(evt_rkh_recorder *r, uint32_t v, unsigned n)
{
    uint32_t in = r->in, s = r->sum;
    if (n > 4u) n = 4u;
    if (n < 4u) v &= ((uint32_t)1 << (8u * n)) - 1u;
    uint32_t x = (v | 0x03030303u) ^ 0x7F7F7F7Fu;
    uint32_t low = n == 4u ? 0x80808080u : ((uint32_t)1 << (8u * n)) - 1u;
    if (EVT_LIKELY(!((x - 0x01010101u) & ~x & 0x80808080u & low) && in + 7u <= r->lim)) {
        EVT_RKH_ST32LE_(r->ring + in, v);
        r->sum = s + (v & 0x00FF00FFu) + ((v >> 8) & 0x00FF00FFu);
        r->in = in + n;
        return;
    }
    put_stuffed(r, v, n);
}
#else
static void field(evt_rkh_recorder *r, uint32_t v, unsigned n) { put_n(r, v, n); }
#endif

void evt_rkh_ui8(evt_rkh_recorder *r, uint8_t v) { field(r, v, 1); }
void evt_rkh_ui16(evt_rkh_recorder *r, uint16_t v) { field(r, v, 2); }
void evt_rkh_put_(evt_rkh_recorder *r, uint32_t v, unsigned n) { field(r, v, n); }
#ifdef EVT_RKH_INLINE_FAST
extern void evt_rkh_ui32(evt_rkh_recorder *r, uint32_t v);
extern void evt_rkh_sym(evt_rkh_recorder *r, uintptr_t p);
extern void evt_rkh_fun(evt_rkh_recorder *r, uintptr_t p);
#else
void evt_rkh_ui32(evt_rkh_recorder *r, uint32_t v) { field(r, v, 4); }
void evt_rkh_sym(evt_rkh_recorder *r, uintptr_t p) { field(r, (uint32_t)p, r->cfg.sz_ptr); }
void evt_rkh_fun(evt_rkh_recorder *r, uintptr_t p) { field(r, (uint32_t)p, r->cfg.sz_fun); }
#endif
void evt_rkh_sig(evt_rkh_recorder *r, uint32_t v) { field(r, v, r->cfg.sz_sig); }
void evt_rkh_ne(evt_rkh_recorder *r, uint32_t v) { field(r, v, r->cfg.sz_nelem); }
void evt_rkh_nblk(evt_rkh_recorder *r, uint32_t v) { field(r, v, r->cfg.sz_nblock); }
void evt_rkh_bsize(evt_rkh_recorder *r, uint32_t v) { field(r, v, r->cfg.sz_bsize); }
void evt_rkh_esize(evt_rkh_recorder *r, uint32_t v) { field(r, v, r->cfg.sz_esize); }
void evt_rkh_ntick(evt_rkh_recorder *r, uint32_t v) { field(r, v, r->cfg.sz_ntimer); }
static void put_str(evt_rkh_recorder *r, const char *s)
{
    while (*s) put_u8(r, (uint8_t)*s++);
    put_u8(r, 0);
}
void evt_rkh_str(evt_rkh_recorder *r, const char *s)
{
    slow_begin(r);
    put_str(r, s);
    slow_end(r);
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
    field(r, ((width & 15u) << 4) | (type & 15u), 1);
    field(r, v, usr_size(r, type & 15u));
}

void evt_rkh_usr_str(evt_rkh_recorder *r, const char *s)
{
    slow_begin(r);
    put_u8(r, 7u);
    put_str(r, s);
    slow_end(r);
}

void evt_rkh_usr_mem(evt_rkh_recorder *r, const uint8_t *p, uint8_t n)
{
    slow_begin(r);
    put_u8(r, 8u);
    put_u8(r, n);
    for (unsigned i = 0; i < n; i++) put_u8(r, p[i]);
    slow_end(r);
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

/* RTT up-buffer transport: SEGGER's public control-block layout (include/evtrace/rtt.h), written
 * from the layout facts. The target is the only writer of WrOff and of the ring's free part; the
 * host the only writer of RdOff. A write copies its bytes, then publishes WrOff after a release
 * fence, so a host that sees the new WrOff sees the bytes. Never blocks unless asked to. */
#include "evtrace/rtt.h"

/* WrOff is published with a release store (the bytes before it), RdOff read with an acquire load
 * (the host's reads of the bytes it frees before they are reused); plain volatile elsewhere. */
#if defined(__GNUC__) || defined(__clang__)
#define RTT_LOAD_ACQ(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define RTT_STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#else
#define RTT_LOAD_ACQ(p) (*(p))
#define RTT_STORE_REL(p, v) (*(p) = (v))
#endif

static const char k_name[] = "evtrace";

void evt_rtt_init(evt_rtt *t, uint8_t *buf, uint32_t size, uint32_t mode)
{
    /* Byte loops, not memset/memcpy: freestanding, no libc. */
    volatile uint8_t *z = (volatile uint8_t *)t;
    for (uint32_t i = 0; i < (uint32_t)sizeof *t; i++) z[i] = 0;
    t->cb.max_up = (int32_t)EVT_RTT_UP;
    t->cb.max_down = (int32_t)EVT_RTT_DOWN;
    t->cb.up[0].name = k_name;
    t->cb.up[0].buf = buf;
    t->cb.up[0].size = size;
    t->cb.up[0].flags = mode & EVT_RTT_MODE_MASK;
    t->cb.down[0].name = k_name;
    /* The id last, back to front, its first byte with a release store: a host that finds
     * "SEGGER RTT" finds a complete block. Stored from a reversed constant, so this code holds no
     * contiguous "SEGGER RTT" a host could mistake for the block. */
    static const char rev[] = "TTR REGGES";
    for (uint32_t i = 0; i < 9u; i++) ((volatile char *)t->cb.id)[9u - i] = rev[i];
    RTT_STORE_REL(&t->cb.id[0], rev[9]);
}

/* Free bytes in the up ring (one byte always stays unused). */
static uint32_t room(const evt_rtt_desc *d, uint32_t wr)
{
    uint32_t rd = RTT_LOAD_ACQ(&d->rd);
    if (rd >= d->size) return 0; /* a reader wrote nonsense: store nothing rather than overrun */
    return rd > wr ? rd - wr - 1u : d->size - 1u - wr + rd;
}

uint32_t evt_rtt_write(evt_rtt *t, const uint8_t *p, uint32_t n)
{
    evt_rtt_desc *d = &t->cb.up[0];
    uint32_t wr = d->wr, size = d->size;
    if (wr >= size) return 0; /* not initialised (size 0) */
    uint32_t free_ = room(d, wr);
    uint32_t mode = d->flags & EVT_RTT_MODE_MASK;
    while (mode == EVT_RTT_MODE_BLOCK && free_ < n && n < size) free_ = room(d, wr);
    uint32_t k = n;
    if (k > free_) k = mode == EVT_RTT_MODE_TRIM ? free_ : 0u;
    if (k < n) {
        t->lost_writes++;
        t->lost_bytes += n - k;
    }
    for (uint32_t i = 0; i < k; i++) {
        d->buf[wr] = p[i];
        if (++wr == size) wr = 0;
    }
    RTT_STORE_REL(&d->wr, wr); /* the bytes before WrOff */
    return k;
}

uint32_t evt_rtt_pending(const evt_rtt *t)
{
    const evt_rtt_desc *d = &t->cb.up[0];
    uint32_t wr = d->wr, rd = RTT_LOAD_ACQ(&d->rd);
    return wr >= rd ? wr - rd : d->size - rd + wr;
}

void evt_rtt_rkh_sink(void *user, const uint8_t *p, uint32_t n) { (void)evt_rtt_write((evt_rtt *)user, p, n); }

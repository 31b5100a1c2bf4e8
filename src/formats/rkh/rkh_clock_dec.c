/* Finding the hook.clock record in a stream's first bytes (rkh_clock_dec.h). The frame's bytes are
 * unescaped as the reader does (rkh_defs.h: flag, escape, xor) and searched for the record's four
 * UI32 user fields (type byte, then 4 bytes little-endian), the first of them the magic. */
#include "formats/rkh/rkh_clock_dec.h"

#include "evtrace/rkh_stream.h"
#include "formats/rkh/rkh_defs.h"
#include "formats/rkh/rkh_hooks_defs.h"

#define FIELD_LEN 5u /* type byte (width 0, UI32) + 4 value bytes */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The record's fields in the unescaped frame f[0..n). */
static int in_frame(const uint8_t *f, size_t n, uint32_t *kernel, uint64_t *hz)
{
    for (size_t k = 0; k + 4 * FIELD_LEN <= n; k++) {
        int ok = 1;
        for (unsigned i = 0; i < 4; i++) ok &= f[k + i * FIELD_LEN] == EVT_RKH_USR_UI32;
        if (!ok || le32(f + k + 1) != RKH_HOOKS_CLOCK_MAGIC) continue;
        uint64_t h = (uint64_t)le32(f + k + 2 * FIELD_LEN + 1) | (uint64_t)le32(f + k + 3 * FIELD_LEN + 1) << 32;
        if (!h) continue;
        *kernel = le32(f + k + FIELD_LEN + 1);
        *hz = h;
        return 1;
    }
    return 0;
}

int rkh_clock_scan(const uint8_t *b, size_t n, uint32_t *kernel, uint64_t *hz)
{
    uint8_t f[256]; /* a hook.clock frame is ~30 bytes: longer frames are not it */
    size_t m = 0;
    int esc = 0, over = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = b[i];
        if (c == RKH_FLAG) { /* a frame ends: look inside it */
            if (!over && in_frame(f, m, kernel, hz)) return 1;
            m = 0;
            esc = over = 0;
            continue;
        }
        if (c == RKH_ESC && !esc) { esc = 1; continue; }
        if (esc) { c ^= RKH_ESC_XOR; esc = 0; }
        if (m < sizeof f) f[m++] = c;
        else over = 1;
    }
    return 0;
}

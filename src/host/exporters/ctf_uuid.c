/* The UUID of a CTF export. A file or memory input: a 128-bit hash of its bytes (read once more,
 * in 64 KiB blocks, before the first event) and of the format name, so converting the same input
 * again gives byte-identical output; the hash is not cryptographic, it tells traces apart. A
 * sequential stream (pipe, socket, serial line) cannot be read twice: its UUID is random. Either
 * way the result is marked as a version-8 (custom) RFC 9562 UUID. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include "evtrace/alloc.h"
#include "formats/common/bytes.h"
#include "host/exporters/ctf.h"

#define UUID_BLOCK 65536

static uint64_t mix_(uint64_t x)
{
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27; x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Two 64-bit lanes over the input, 8 bytes at a time (the tail zero-padded), then the length. */
typedef struct hash128 { uint64_t a, b, len; } hash128;

static void word_(hash128 *h, uint64_t w)
{
    h->a = (h->a ^ w) * 0x9E3779B97F4A7C15ull;
    h->a ^= h->a >> 29;
    h->b = (h->b + w) * 0xC2B2AE3D27D4EB4Full;
    h->b = (h->b << 31) | (h->b >> 33);
}

static void hash_bytes_(hash128 *h, const uint8_t *p, size_t n)
{
    size_t i = 0;
    hash128 x = *h; /* a copy the compiler keeps in registers */
    for (; i + 32 <= n; i += 32) {
        word_(&x, evt_ld_u64le(p + i));
        word_(&x, evt_ld_u64le(p + i + 8));
        word_(&x, evt_ld_u64le(p + i + 16));
        word_(&x, evt_ld_u64le(p + i + 24));
    }
    for (; i + 8 <= n; i += 8) word_(&x, evt_ld_u64le(p + i));
    *h = x;
    if (i < n) {
        uint8_t t[8] = {0};
        memcpy(t, p + i, n - i);
        word_(h, evt_ld_u64le(t));
    }
    h->len += n;
}

int ctf_trace_uuid(evt_reader *r, uint8_t uuid[16])
{
    if (r->src.is_stream) {
        if (getrandom(uuid, 16, 0) != 16) return 0;
    } else {
        hash128 h = {0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0};
        hash_bytes_(&h, (const uint8_t *)r->desc->name, strlen(r->desc->name) + 1);
        uint8_t *blk = evt_malloc(UUID_BLOCK);
        if (!blk) return 0;
        uint64_t off = 0;
        size_t n;
        while ((n = evt_source_read_at(&r->src, off, blk, UUID_BLOCK)) > 0) {
            hash_bytes_(&h, blk, n);
            off += n;
            if (n < UUID_BLOCK) break;
        }
        evt_free(blk);
        uint64_t x = mix_(h.a ^ mix_(h.len)), y = mix_(h.b + mix_(x));
        evt_put_u64le(uuid, x);
        evt_put_u64le(uuid + 8, y);
    }
    uuid[6] = (uint8_t)((uuid[6] & 0x0F) | 0x80); /* version 8 */
    uuid[8] = (uint8_t)((uuid[8] & 0x3F) | 0x80); /* variant 10 */
    return 1;
}

void ctf_uuid_str(const uint8_t u[16], char out[37])
{
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3],
             u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

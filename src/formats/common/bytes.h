/* Freestanding byte stores and loads with explicit endianness, shared by every encoder and the
 * host cursor. No libc; usable on the target. */
#ifndef EVT_BYTES_H
#define EVT_BYTES_H

#include <stdint.h>

static inline void evt_put_u16le(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void evt_put_u16be(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void evt_put_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void evt_put_u32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static inline void evt_put_u64le(uint8_t *p, uint64_t v)
{
    evt_put_u32le(p, (uint32_t)v); evt_put_u32le(p + 4, (uint32_t)(v >> 32));
}
static inline void evt_put_u64be(uint8_t *p, uint64_t v)
{
    evt_put_u32be(p, (uint32_t)(v >> 32)); evt_put_u32be(p + 4, (uint32_t)v);
}
/* Runtime-selected order: big != 0 means big-endian. */
static inline void evt_put_u16(uint8_t *p, uint16_t v, int big) { if (big) evt_put_u16be(p, v); else evt_put_u16le(p, v); }
static inline void evt_put_u32(uint8_t *p, uint32_t v, int big) { if (big) evt_put_u32be(p, v); else evt_put_u32le(p, v); }

static inline uint16_t evt_ld_u16le(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint16_t evt_ld_u16be(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t evt_ld_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint32_t evt_ld_u32be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline uint64_t evt_ld_u64le(const uint8_t *p) { return evt_ld_u32le(p) | ((uint64_t)evt_ld_u32le(p + 4) << 32); }
static inline uint64_t evt_ld_u64be(const uint8_t *p) { return ((uint64_t)evt_ld_u32be(p) << 32) | evt_ld_u32be(p + 4); }
static inline uint16_t evt_ld_u16(const uint8_t *p, int big) { return big ? evt_ld_u16be(p) : evt_ld_u16le(p); }
static inline uint32_t evt_ld_u32(const uint8_t *p, int big) { return big ? evt_ld_u32be(p) : evt_ld_u32le(p); }
static inline uint64_t evt_ld_u64(const uint8_t *p, int big) { return big ? evt_ld_u64be(p) : evt_ld_u64le(p); }

#endif

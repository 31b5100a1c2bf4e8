/* MS-XCA "plain LZ77" (XPRESS) decompressor used by compressed .etl buffers (formats/etw.md §5.6).
 * Written from the format facts: 32-bit little-endian flag words read MSB first; flag 0 = one
 * literal byte, flag 1 = a u16 match token (offset = token/8 + 1, length code = token%8) with the
 * length extended by a shared half-byte, then a byte, then a u16 / u32. Host side, no allocation. */
#ifndef EVT_ETW_XPRESS_H
#define EVT_ETW_XPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Result codes of etw_xpress_decompress(). */
typedef enum etw_xpress_status {
    ETW_XPRESS_OK = 0,
    ETW_XPRESS_TRUNCATED,   /* input ends inside a flag word or a match token */
    ETW_XPRESS_BAD_OFFSET,  /* a match reaches before the start of the output */
    ETW_XPRESS_BAD_LENGTH,  /* an extended length below its minimum (22) */
    ETW_XPRESS_OVERFLOW     /* the data would produce more than out_cap bytes */
} etw_xpress_status;

/* Decompress in[0..in_len) into out[0..out_cap). Never reads past in_len nor writes past out_cap.
 * The stream ends when the input is exhausted (at a flag word, a literal, or a match flag, as
 * MS-XCA's end marker). On return *out_len holds the bytes produced (also on error) and *err_pos
 * (if not NULL) the input position of the problem (or in_len). The caller compares *out_len with
 * the size it expects. */
etw_xpress_status etw_xpress_decompress(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap,
                                        size_t *out_len, size_t *err_pos);
/* One-line message for a status. */
const char *etw_xpress_message(etw_xpress_status st);

#endif

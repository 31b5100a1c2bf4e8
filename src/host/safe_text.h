/* Terminal-safe text: what a trace, a file name or a server says may hold any byte, and printed
 * raw a control byte can retitle or clear a terminal or forge whole output lines. Every
 * human-readable output passes such text through here; JSON output keeps its own exact escaping
 * (json.c). The rule: printable ASCII and valid UTF-8 pass; TAB, LF, CR and backslash-free C0
 * bytes become `\t`, `\n`, `\r`, `\xHH`; DEL and each byte of an invalid UTF-8 sequence become
 * `\xHH`; the C1 controls (U+0080..U+009F) and the bidirectional overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069) become `\uHHHH`. */
#ifndef EVT_HOST_SAFE_TEXT_H
#define EVT_HOST_SAFE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* 1 when s[0..n) needs no escaping. */
int evt_text_is_safe(const char *s, size_t n);
/* Length of the escaped form of s[0..n) (without a NUL). */
size_t evt_text_escaped_len(const char *s, size_t n);
/* The escaped form of s[0..n) into out (cap >= 1 bytes, NUL-terminated). Stops before an item
 * that does not fit and then ends the text with "..." (when cap allows). Returns the length
 * written (without the NUL). */
size_t evt_text_escape(const char *s, size_t n, char *out, size_t cap);
/* Write the escaped form of s[0..n) to f. Returns 0, or EOF on a write error. */
int evt_text_fput(const char *s, size_t n, FILE *f);

#endif

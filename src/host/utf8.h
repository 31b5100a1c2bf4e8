/* UTF-8 checks for text that comes from traces (names are bytes, not guaranteed UTF-8): the one
 * rule every output follows — valid UTF-8 passes through, each invalid or truncated sequence (its
 * maximal subpart, as Unicode recommends) becomes U+FFFD. */
#ifndef EVT_HOST_UTF8_H
#define EVT_HOST_UTF8_H

#include <stddef.h>

/* Bytes of s[0..n) that start a valid sequence at s[0] (1 for ASCII, 2..4), or 0 when s[0] starts
 * no valid sequence; *bad receives the length of the invalid maximal subpart then (>= 1). */
size_t evt_utf8_seq(const unsigned char *s, size_t n, size_t *bad);
/* Length of the longest prefix of s[0..n) that is plain ASCII (bytes < 0x80), 8 bytes a step. */
size_t evt_ascii_prefix(const char *s, size_t n);
/* Length of the longest prefix of s[0..n) of printable ASCII (0x20..0x7e), 8 bytes a step. */
size_t evt_plain_prefix(const char *s, size_t n);
/* 1 if s[0..n) is valid UTF-8. */
int evt_utf8_valid(const char *s, size_t n);
/* The same for a NUL-terminated string; *len receives its length (one scan for ASCII). */
int evt_utf8_valid_z(const char *s, size_t *len);
/* Length s[0..n) takes once sanitized (each invalid subpart -> the 3 bytes of U+FFFD). */
size_t evt_utf8_clean_len(const char *s, size_t n);
/* Write the sanitized text to out (room for evt_utf8_clean_len(s, n) bytes, no NUL added);
 * returns the bytes written. */
size_t evt_utf8_clean(const char *s, size_t n, char *out);

#endif

/* Bytes assembled in a buffer on the stack and written to a FILE with one fwrite (the JSON
 * writer's calls, dump's text lines): fwrite per piece, or printf, cost more than the pieces.
 * Nothing is kept once flushed, so the caller may write to the FILE between two uses. */
#ifndef EVT_HOST_FBUF_H
#define EVT_HOST_FBUF_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define EVT_FBUF_CAP 4096
typedef struct evt_fbuf {
    FILE *f;
    size_t n;              /* bytes in p, not yet written */
    char p[EVT_FBUF_CAP];
} evt_fbuf;

static inline void evt_fbuf_init(evt_fbuf *b, FILE *f)
{
    b->f = f;
    b->n = 0;
}
static inline void evt_fbuf_flush(evt_fbuf *b)
{
    if (b->n) fwrite(b->p, 1, b->n, b->f);
    b->n = 0;
}
/* k (<= EVT_FBUF_CAP) bytes of room after the pending ones (flushed first when they would not
 * fit); the caller adds what it wrote there to n. */
static inline char *evt_fbuf_room(evt_fbuf *b, size_t k)
{
    if (EVT_FBUF_CAP - b->n < k) evt_fbuf_flush(b);
    return b->p + b->n;
}
/* s[0..n): copied, or (more than half the buffer) written as it is after the pending bytes. */
static inline void evt_fbuf_put(evt_fbuf *b, const void *s, size_t n)
{
    if (n > EVT_FBUF_CAP / 2) {
        evt_fbuf_flush(b);
        fwrite(s, 1, n, b->f);
        return;
    }
    memcpy(evt_fbuf_room(b, n), s, n);
    b->n += n;
}
static inline void evt_fbuf_c(evt_fbuf *b, char c)
{
    *evt_fbuf_room(b, 1) = c;
    b->n++;
}
#define EVT_FBUF_LIT(b, lit) evt_fbuf_put((b), (lit), sizeof(lit) - 1)

#endif

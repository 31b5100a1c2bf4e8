/* Internal to the remote sources (source_tcp.c, source_gdb.c): HOST:PORT and a TCP connect. */
#ifndef EVT_SOURCE_REMOTE_IMPL_H
#define EVT_SOURCE_REMOTE_IMPL_H

#include <stddef.h>

/* Split "HOST:PORT" / "[v6]:PORT" (HOST required). Returns 0 on a bad spec. */
int evt_remote_split(const char *spec, char *host, size_t hl, char *port, size_t pl);
/* A connected, blocking TCP socket (TCP_NODELAY, close-on-exec), or -2 for a bad spec / unknown
 * host, -1 when the connect failed or took longer than timeout_ms (0: 10 s); err says why, naming
 * the option `what`. */
int evt_remote_connect(const char *spec, const char *what, unsigned timeout_ms, char *err, size_t errlen);

#endif

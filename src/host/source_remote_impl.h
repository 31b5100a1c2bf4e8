/* Internal to the remote sources (source_tcp.c, source_net.c, source_gdb.c): the socket part they
 * share, in source_sock.c. */
#ifndef EVT_SOURCE_REMOTE_IMPL_H
#define EVT_SOURCE_REMOTE_IMPL_H

#include <stddef.h>
#include "evtrace/source.h"

struct addrinfo;

/* Split "HOST:PORT" / "[v6]:PORT" into host and port text; a spec without a colon is a bare PORT
 * on dflt_host, or refused when dflt_host is NULL. Returns 0 on a bad spec (a bare IPv6 literal, a
 * port outside 1..65535, a part too long for its buffer). */
int evt_remote_split(const char *spec, const char *dflt_host, char *host, size_t hl, char *port, size_t pl);
/* getaddrinfo for a stream socket (passive: for bind) with a numeric port; the list (free it with
 * freeaddrinfo), or NULL with err saying why. */
struct addrinfo *evt_remote_resolve(const char *host, const char *port, int passive, char *err, size_t errlen);
/* A connected, blocking TCP socket (TCP_NODELAY, close-on-exec), or -2 for a bad spec / unknown
 * host, -1 when the connect failed or took longer than timeout_ms (0: 10 s); err says why, naming
 * the option `what`. */
int evt_remote_connect(const char *spec, const char *what, unsigned timeout_ms, char *err, size_t errlen);
/* Make the connected socket fd the stream source src (named spec); on failure err says why and
 * src is closed (fd with it). */
evt_status evt_remote_stream(evt_source *src, int fd, const char *spec, unsigned idle_ms, char *err, size_t errlen);

#endif

/* TCP client as a stream source (--connect HOST:PORT): the RTT servers of debug probes (OpenOCD
 * `rtt server start`, pyOCD's RTT channel port, the J-Link GDB server's RTT telnet port) send the
 * up buffer's bytes on a TCP port; so does any bridge. Also the shared HOST:PORT split and the
 * connect with a time limit the GDB client (source_gdb.c) uses. No reconnect. */
#define _DEFAULT_SOURCE /* SOCK_CLOEXEC */
#include "evtrace/source_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "source_remote_impl.h"

int evt_remote_split(const char *spec, char *host, size_t hl, char *port, size_t pl)
{
    const char *colon = strrchr(spec, ':');
    if (!colon) return 0;
    const char *h = spec;
    size_t hn = (size_t)(colon - spec);
    const char *p = colon + 1;
    if (hn >= 2 && h[0] == '[' && h[hn - 1] == ']') { h++; hn -= 2; }
    else if (memchr(h, ':', hn)) return 0; /* a bare IPv6 literal needs brackets */
    char *end;
    long v = strtol(p, &end, 10);
    if (!*p || *end || v <= 0 || v > 65535 || hn == 0 || hn >= hl || strlen(p) >= pl) return 0;
    memcpy(host, h, hn);
    host[hn] = '\0';
    strcpy(port, p);
    return 1;
}

int evt_remote_connect(const char *spec, const char *what, unsigned timeout_ms, char *err, size_t errlen)
{
    char host[256], port[16];
    if (!evt_remote_split(spec, host, sizeof host, port, sizeof port)) {
        snprintf(err, errlen, "%s needs HOST:PORT (PORT 1..65535, IPv6 as [ADDR]:PORT), not '%s'", what, spec);
        return -2;
    }
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    int gr = getaddrinfo(host, port, &hints, &ai);
    if (gr != 0 || !ai) {
        snprintf(err, errlen, "cannot resolve '%s': %s", host, gai_strerror(gr));
        return -2;
    }
    int fd = -1, e = 0;
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) { e = errno; continue; }
        int r = connect(fd, a->ai_addr, a->ai_addrlen);
        if (r != 0 && errno == EINPROGRESS) {
            struct pollfd p = {fd, POLLOUT, 0};
            int pr;
            do pr = poll(&p, 1, timeout_ms ? (int)timeout_ms : 10000);
            while (pr < 0 && errno == EINTR);
            socklen_t sl = sizeof e;
            if (pr == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl) == 0 && e == 0) r = 0;
            else if (pr == 0) e = ETIMEDOUT;
        } else if (r != 0) e = errno;
        if (r != 0) { close(fd); fd = -1; }
    }
    freeaddrinfo(ai);
    if (fd < 0) {
        snprintf(err, errlen, "cannot connect to %s: %s", spec, strerror(e));
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

evt_status evt_source_connect(evt_source *src, const char *spec, unsigned idle_ms, char *err, size_t errlen)
{
    memset(src, 0, sizeof *src);
    int fd = evt_remote_connect(spec, "--connect", idle_ms, err, errlen);
    if (fd < 0) return fd == -2 ? EVT_ERR_USAGE : EVT_ERR_IO;
    evt_status st = evt_source_open_stream(src, fd, spec, 0, idle_ms);
    if (st != EVT_OK) {
        snprintf(err, errlen, "out of memory");
        evt_source_close(src);
    }
    return st;
}

/* The socket part shared by the remote stream sources (source_remote_impl.h): the [HOST:]PORT
 * split, name resolution, the connect with a time limit (--connect, --gdb) and the stream opened
 * on a connected socket (--connect, --listen). */
#define _DEFAULT_SOURCE /* SOCK_CLOEXEC */
#include "source_remote_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int evt_remote_split(const char *spec, const char *dflt_host, char *host, size_t hl, char *port, size_t pl)
{
    const char *colon = strrchr(spec, ':');
    const char *h = dflt_host, *p = spec;
    size_t hn = dflt_host ? strlen(dflt_host) : 0;
    if (colon) {
        h = spec;
        hn = (size_t)(colon - spec);
        p = colon + 1;
        if (hn >= 2 && h[0] == '[' && h[hn - 1] == ']') { h++; hn -= 2; }
        else if (memchr(h, ':', hn)) return 0; /* a bare IPv6 literal needs brackets */
    } else if (!dflt_host) {
        return 0;
    }
    char *end;
    long v = strtol(p, &end, 10);
    if (!*p || *end || v <= 0 || v > 65535 || hn == 0 || hn >= hl || strlen(p) >= pl) return 0;
    memcpy(host, h, hn);
    host[hn] = '\0';
    strcpy(port, p);
    return 1;
}

struct addrinfo *evt_remote_resolve(const char *host, const char *port, int passive, char *err, size_t errlen)
{
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    int gr = getaddrinfo(host, port, &hints, &ai);
    if (gr != 0 || !ai) {
        snprintf(err, errlen, "cannot resolve '%s': %s", host, gai_strerror(gr));
        if (ai) freeaddrinfo(ai);
        return NULL;
    }
    return ai;
}

int evt_remote_connect(const char *spec, const char *what, unsigned timeout_ms, char *err, size_t errlen)
{
    char host[256], port[16];
    if (!evt_remote_split(spec, NULL, host, sizeof host, port, sizeof port)) {
        snprintf(err, errlen, "%s needs HOST:PORT (PORT 1..65535, IPv6 as [ADDR]:PORT), not '%s'", what, spec);
        return -2;
    }
    struct addrinfo *ai = evt_remote_resolve(host, port, 0, err, errlen);
    if (!ai) return -2;
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

evt_status evt_remote_stream(evt_source *src, int fd, const char *spec, unsigned idle_ms, char *err, size_t errlen)
{
    evt_status st = evt_source_open_stream(src, fd, spec, 0, idle_ms);
    if (st != EVT_OK) {
        snprintf(err, errlen, "out of memory");
        evt_source_close(src);
    }
    return st;
}

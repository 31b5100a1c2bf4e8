/* TCP as a stream source: listen on [HOST:]PORT (loopback unless a host is named), accept one
 * connection, read it as a stream. The wait for the connection honours the idle limit. */
#define _DEFAULT_SOURCE /* SOCK_CLOEXEC */
#include "evtrace/source.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Split "[HOST:]PORT", "[v6]:PORT" into host (default 127.0.0.1) and port text. */
static int split_spec(const char *spec, char *host, size_t hl, char *port, size_t pl)
{
    const char *colon = strrchr(spec, ':');
    const char *h = "127.0.0.1";
    size_t hn = strlen(h);
    const char *p = spec;
    if (colon) {
        h = spec;
        hn = (size_t)(colon - spec);
        p = colon + 1;
        if (hn >= 2 && h[0] == '[' && h[hn - 1] == ']') { h++; hn -= 2; }
        else if (memchr(h, ':', hn)) return 0; /* a bare IPv6 literal needs brackets */
    }
    char *end;
    long v = strtol(p, &end, 10);
    if (!*p || *end || v <= 0 || v > 65535 || hn == 0 || hn >= hl || strlen(p) >= pl) return 0;
    memcpy(host, h, hn);
    host[hn] = '\0';
    strcpy(port, p);
    return 1;
}

evt_status evt_source_listen(evt_source *src, const char *spec, unsigned idle_ms,
                             void (*announce)(void *user, const char *where), void *user, char *err,
                             size_t errlen)
{
    char host[256], port[16];
    memset(src, 0, sizeof *src);
    if (!split_spec(spec, host, sizeof host, port, sizeof port)) {
        snprintf(err, errlen, "--listen needs [HOST:]PORT (PORT 1..65535, IPv6 as [ADDR]:PORT), not '%s'", spec);
        return EVT_ERR_USAGE;
    }
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int gr = getaddrinfo(host, port, &hints, &ai);
    if (gr != 0 || !ai) {
        snprintf(err, errlen, "cannot resolve '%s': %s", host, gai_strerror(gr));
        return EVT_ERR_USAGE;
    }
    int ls = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (ls < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        freeaddrinfo(ai);
        return EVT_ERR_IO;
    }
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(ls, ai->ai_addr, ai->ai_addrlen) != 0 || listen(ls, 1) != 0) {
        snprintf(err, errlen, "cannot listen on %s:%s: %s", host, port, strerror(errno));
        freeaddrinfo(ai);
        close(ls);
        return EVT_ERR_IO;
    }
    freeaddrinfo(ai);
    if (announce) {
        char where[280];
        snprintf(where, sizeof where, strchr(host, ':') ? "[%s]:%s" : "%s:%s", host, port);
        announce(user, where);
    }
    int pr, stop = 0;
    do {
        struct pollfd p[2] = {{ls, POLLIN, 0}, {evt_source_stop_fd(), POLLIN, 0}};
        pr = poll(p, 2, idle_ms ? (int)idle_ms : -1);
        if (pr > 0 && p[1].fd >= 0 && p[1].revents) { stop = 1; pr = 0; }
    } while (pr < 0 && errno == EINTR);
    if (pr == 0) {
        close(ls);
        if (stop) snprintf(err, errlen, "stopped before any connection");
        else snprintf(err, errlen, "no connection within %u ms", idle_ms);
        return EVT_END;
    }
    int fd = pr > 0 ? accept(ls, NULL, NULL) : -1;
    int e = errno;
    close(ls);
    if (fd < 0) {
        snprintf(err, errlen, "accept: %s", strerror(e));
        return EVT_ERR_IO;
    }
    evt_status st = evt_source_open_stream(src, fd, spec, 0, idle_ms);
    if (st != EVT_OK) {
        snprintf(err, errlen, "out of memory");
        evt_source_close(src);
    }
    return st;
}

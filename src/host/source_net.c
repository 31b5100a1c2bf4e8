/* TCP server as a stream source (--listen [HOST:]PORT, loopback unless a host is named): accept one
 * connection, read it as a stream. The wait for the connection honours the idle limit and the stop
 * fd. The socket part is source_sock.c's. */
#define _DEFAULT_SOURCE /* SOCK_CLOEXEC */
#include "evtrace/source.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "source_remote_impl.h"

evt_status evt_source_listen(evt_source *src, const char *spec, unsigned idle_ms,
                             void (*announce)(void *user, const char *where), void *user, char *err,
                             size_t errlen)
{
    char host[256], port[16];
    memset(src, 0, sizeof *src);
    if (!evt_remote_split(spec, "127.0.0.1", host, sizeof host, port, sizeof port)) {
        snprintf(err, errlen, "--listen needs [HOST:]PORT (PORT 1..65535, IPv6 as [ADDR]:PORT), not '%s'", spec);
        return EVT_ERR_USAGE;
    }
    struct addrinfo *ai = evt_remote_resolve(host, port, 1, err, errlen);
    if (!ai) return EVT_ERR_USAGE;
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
    return evt_remote_stream(src, fd, spec, idle_ms, err, errlen);
}

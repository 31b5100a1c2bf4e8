/* RTT through a GDB server (--gdb HOST:PORT --rtt [ADDR]): a client of GDB's remote serial
 * protocol, written from the protocol's description: packets `$payload#xx` (xx: the payload's byte
 * sum mod 256 in hex) acknowledged with '+', run-length encoding `X*n` in replies (n - 29 more
 * copies), `?` (why the target stopped), `m ADDR,LEN` / `M ADDR,LEN:HEX` (read / write memory),
 * `c` (continue; the reply is the next stop), the interrupt byte 0x03, `D` (detach); stop replies
 * `S xx` / `T xx...`, exits `W xx` / `X xx`.
 *
 * The RTT control block (include/evtrace/rtt.h: id, counts, 24-byte descriptors of a 32-bit
 * little-endian target) is found by address, or by searching a RAM range for its id (retried while
 * the firmware has not written it yet). A thread then polls up buffer N: reads WrOff/RdOff, the
 * bytes between them, writes RdOff, and hands the bytes to the stream source through a socket
 * pair. Servers that stop the target when a packet arrives while it runs (QEMU, and OpenOCD /
 * J-Link in all-stop mode) are polled by interrupt, read, continue; a server that answers memory
 * reads while the target runs is only read. */
#define _GNU_SOURCE /* SOCK_CLOEXEC, memmem */
#include "evtrace/source_remote.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "evtrace/alloc.h"
#include "formats/common/bytes.h"
#include "source_remote_impl.h"

#define PKT_MAX 8192u        /* largest reply payload kept (a 1 KiB read is 2 KiB of hex) */
#define MEM_CHUNK 1024u      /* bytes per memory read */
#define REPLY_MS 3000        /* a reply to a command, a stop after an interrupt */
#define SEARCH_CHUNK 1024u
#define RTT_ID "SEGGER RTT"
#define RTT_DESC_OFF 24u     /* first up descriptor */
#define RTT_DESC_SIZE 24u    /* name, buffer, size, WrOff, RdOff, flags: 32-bit each */

typedef struct gdb_conn {
    int fd;
    uint8_t in[4096];
    size_t in_len, in_pos;
    char pkt[PKT_MAX + 1]; /* the last packet's payload, decoded, NUL-terminated */
    size_t pkt_len;
    int halt_mode;         /* poll by interrupt / read / continue */
    int running;           /* a continue is outstanding */
    int exited;            /* the target exited (W/X) or the server closed */
    char why[160];         /* how it ended */
} gdb_conn;

typedef struct gdb_poller {
    gdb_conn g;
    int out;               /* our end of the socket pair */
    uint64_t cb;           /* control block address */
    unsigned channel, poll_ms;
    uint64_t forwarded;
    void (*note)(void *user, const char *msg);
    void *user;
    char spec[200];
} gdb_poller;

/* Polling threads still attached to a target (evt_source_gdb_wait). */
static pthread_mutex_t g_live_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_live_cv = PTHREAD_COND_INITIALIZER;
static unsigned g_live_pollers;

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- the wire -------------------------------------------------------------------------------- */

/* One byte from the server within timeout_ms: the byte, -1 on timeout, -2 when the connection
 * ended. */
static int rd_byte(gdb_conn *g, int timeout_ms)
{
    if (g->in_pos < g->in_len) return g->in[g->in_pos++];
    struct pollfd p = {g->fd, POLLIN, 0};
    int pr;
    do pr = poll(&p, 1, timeout_ms);
    while (pr < 0 && errno == EINTR);
    if (pr == 0) return -1;
    ssize_t r = pr > 0 ? recv(g->fd, g->in, sizeof g->in, 0) : -1;
    if (r <= 0) {
        g->exited = 1;
        if (!g->why[0]) snprintf(g->why, sizeof g->why, "the GDB server closed the connection");
        return -2;
    }
    g->in_len = (size_t)r;
    g->in_pos = 1;
    return g->in[0];
}

static int send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        c += w;
        n -= (size_t)w;
    }
    return 1;
}

static int send_pkt(gdb_conn *g, const char *payload)
{
    size_t n = strlen(payload);
    char *buf = evt_malloc(n + 5);
    if (!buf) return 0;
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++) sum += (uint8_t)payload[i];
    buf[0] = '$';
    memcpy(buf + 1, payload, n);
    snprintf(buf + 1 + n, 4, "#%02x", sum & 0xFFu);
    int ok = send_all(g->fd, buf, n + 4);
    evt_free(buf);
    if (!ok) { g->exited = 1; snprintf(g->why, sizeof g->why, "the GDB server closed the connection"); }
    return ok;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The next packet within timeout_ms into g->pkt (acknowledged); 1, 0 on timeout, -1 when the
 * connection ended. Acks and notifications ('%...') are skipped. */
static int recv_pkt(gdb_conn *g, int timeout_ms)
{
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    for (;;) {
        int left = (int)(end > now_ms() ? end - now_ms() : 0);
        int c = rd_byte(g, left);
        if (c == -2) return -1;
        if (c == -1) return 0;
        if (c != '$' && c != '%') continue;
        int notif = c == '%';
        size_t n = 0;
        unsigned sum = 0;
        int prev = -1, bad = 0;
        for (;;) {
            c = rd_byte(g, REPLY_MS);
            if (c < 0) return c == -2 ? -1 : 0;
            if (c == '#') break;
            sum += (unsigned)c;
            if (c == '*' && prev >= 0) { /* run-length: the previous byte n - 29 more times */
                int k = rd_byte(g, REPLY_MS);
                if (k < 0) return k == -2 ? -1 : 0;
                sum += (unsigned)k;
                for (int i = 0; i < k - 29 && n < PKT_MAX; i++) g->pkt[n++] = (char)prev;
                continue;
            }
            if (c == '}') { /* escaped byte */
                int k = rd_byte(g, REPLY_MS);
                if (k < 0) return k == -2 ? -1 : 0;
                sum += (unsigned)k;
                c = k ^ 0x20;
            }
            if (n < PKT_MAX) g->pkt[n++] = (char)c;
            else bad = 1;
            prev = c;
        }
        int h1 = rd_byte(g, REPLY_MS), h2 = h1 >= 0 ? rd_byte(g, REPLY_MS) : -1;
        if (h1 < 0 || h2 < 0) return -1;
        int cs = hexval(h1) * 16 + hexval(h2);
        if (notif) continue;
        if (cs != (int)(sum & 0xFFu) || bad) {
            send_all(g->fd, "-", 1); /* ask again */
            continue;
        }
        send_all(g->fd, "+", 1);
        g->pkt[n] = '\0';
        g->pkt_len = n;
        return 1;
    }
}

static int is_stop(const char *p) { return p[0] == 'S' || p[0] == 'T'; }
static int is_exit(const char *p) { return p[0] == 'W' || p[0] == 'X'; }

static void saw_exit(gdb_conn *g)
{
    g->exited = 1;
    snprintf(g->why, sizeof g->why, "the target %s (%.40s)", g->pkt[0] == 'W' ? "exited" : "was terminated", g->pkt);
}

/* Send a command and take its reply (stop replies that arrive first are noted and skipped).
 * Returns 1 with the reply in g->pkt, 0 otherwise. */
static int command(gdb_conn *g, const char *payload)
{
    if (g->exited || !send_pkt(g, payload)) return 0;
    for (;;) {
        int r = recv_pkt(g, REPLY_MS);
        if (r <= 0) {
            if (r == 0) snprintf(g->why, sizeof g->why, "no reply to '%.20s' within %d ms", payload, REPLY_MS);
            return 0;
        }
        if (is_exit(g->pkt)) { saw_exit(g); return 0; }
        if (is_stop(g->pkt) && payload[0] != '?') { g->running = 0; continue; }
        return 1;
    }
}

static int read_mem(gdb_conn *g, uint64_t addr, uint8_t *dst, size_t n)
{
    while (n) {
        size_t k = n < MEM_CHUNK ? n : MEM_CHUNK;
        char cmd[48];
        snprintf(cmd, sizeof cmd, "m%llx,%zx", (unsigned long long)addr, k);
        if (!command(g, cmd)) return 0;
        if (g->pkt_len < 2 * k) {
            snprintf(g->why, sizeof g->why, "reading %zu bytes at 0x%llx: the server replied '%.20s'", k,
                     (unsigned long long)addr, g->pkt);
            return 0;
        }
        for (size_t i = 0; i < k; i++) {
            int hi = hexval(g->pkt[2 * i]), lo = hexval(g->pkt[2 * i + 1]);
            if (hi < 0 || lo < 0) return 0;
            dst[i] = (uint8_t)(hi * 16 + lo);
        }
        addr += k;
        dst += k;
        n -= k;
    }
    return 1;
}

static int write_u32(gdb_conn *g, uint64_t addr, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    char cmd[64];
    snprintf(cmd, sizeof cmd, "M%llx,4:%02x%02x%02x%02x", (unsigned long long)addr, b[0], b[1], b[2], b[3]);
    if (!command(g, cmd)) return 0;
    if (strcmp(g->pkt, "OK") != 0) {
        snprintf(g->why, sizeof g->why, "writing RdOff at 0x%llx: the server replied '%.20s'", (unsigned long long)addr,
                 g->pkt);
        return 0;
    }
    return 1;
}

/* Stop the running target: 1 halted, 0 it exited or the connection ended. */
static int halt(gdb_conn *g)
{
    if (!g->running) return !g->exited;
    if (!send_all(g->fd, "\x03", 1)) { g->exited = 1; return 0; }
    for (;;) {
        int r = recv_pkt(g, REPLY_MS);
        if (r < 0) return 0;
        if (r == 0) { snprintf(g->why, sizeof g->why, "the target did not stop within %d ms", REPLY_MS); return 0; }
        if (is_exit(g->pkt)) { saw_exit(g); return 0; }
        if (is_stop(g->pkt)) { g->running = 0; return 1; }
    }
}

static int resume(gdb_conn *g)
{
    if (g->running || g->exited) return !g->exited;
    if (!send_pkt(g, "c")) return 0;
    g->running = 1;
    return 1;
}

/* ---- the control block ----------------------------------------------------------------------- */

/* Search [lo, lo+len) for the id (the target halted). 1 and *at when found. */
static int search_id(gdb_conn *g, uint64_t lo, uint64_t len, uint64_t *at)
{
    uint8_t buf[sizeof RTT_ID + SEARCH_CHUNK];
    size_t keep = 0; /* the previous chunk's last bytes: an id across the boundary */
    for (uint64_t a = lo; a < lo + len;) {
        size_t k = (size_t)(lo + len - a < SEARCH_CHUNK ? lo + len - a : SEARCH_CHUNK);
        if (!read_mem(g, a, buf + keep, k)) return 0;
        const uint8_t *hit = memmem(buf, keep + k, RTT_ID, sizeof RTT_ID); /* with its NUL */
        if (hit) { *at = a - keep + (uint64_t)(hit - buf); return 1; }
        size_t tot = keep + k, nk = tot < sizeof RTT_ID - 1 ? tot : sizeof RTT_ID - 1;
        memmove(buf, buf + tot - nk, nk);
        keep = nk;
        a += k;
    }
    return 0;
}

/* The block at addr (target halted): its id and the channel's descriptor look sane. */
static int check_block(gdb_conn *g, uint64_t addr, unsigned channel, char *err, size_t errlen)
{
    uint8_t h[RTT_DESC_OFF];
    if (!read_mem(g, addr, h, sizeof h)) { snprintf(err, errlen, "%s", g->why); return 0; }
    if (memcmp(h, RTT_ID, sizeof RTT_ID) != 0) {
        snprintf(err, errlen, "no RTT control block at 0x%llx (its first bytes are not \"SEGGER RTT\")",
                 (unsigned long long)addr);
        return 0;
    }
    uint32_t nup = evt_ld_u32le(h + 16);
    if (channel >= nup || nup > 64) {
        snprintf(err, errlen, "RTT control block at 0x%llx has %u up buffers: no channel %u", (unsigned long long)addr,
                 nup, channel);
        return 0;
    }
    return 1;
}

/* ---- polling ------------------------------------------------------------------------------------ */

/* Read what the up buffer holds, forward it, advance RdOff (target halted, or a server that reads
 * while it runs). Returns 1, 0 when the target or the connection is gone (g->why), -1 when the
 * reader of the stream has gone. */
static int poll_once(gdb_poller *pl)
{
    gdb_conn *g = &pl->g;
    uint64_t d = pl->cb + RTT_DESC_OFF + (uint64_t)pl->channel * RTT_DESC_SIZE;
    uint8_t desc[RTT_DESC_SIZE];
    if (!read_mem(g, d, desc, sizeof desc)) return 0;
    uint32_t buf = evt_ld_u32le(desc + 4), size = evt_ld_u32le(desc + 8);
    uint32_t wr = evt_ld_u32le(desc + 12), rd = evt_ld_u32le(desc + 16);
    if (size == 0 || wr >= size || rd >= size) return 1; /* not set up (yet): nothing to read */
    if (wr == rd) return 1;
    uint32_t n1 = wr > rd ? wr - rd : size - rd, n2 = wr > rd ? 0 : wr;
    uint8_t *tmp = evt_malloc((size_t)n1 + n2);
    if (!tmp) { snprintf(g->why, sizeof g->why, "out of memory"); return 0; }
    int ok = read_mem(g, (uint64_t)buf + rd, tmp, n1) && (n2 == 0 || read_mem(g, buf, tmp + n1, n2));
    if (ok && !send_all(pl->out, tmp, (size_t)n1 + n2)) ok = -1;
    if (ok == 1) ok = write_u32(g, d + 16, wr);
    if (ok == 1) pl->forwarded += (uint64_t)n1 + n2;
    evt_free(tmp);
    return ok;
}

static void note(gdb_poller *pl, const char *fmt, const char *a, unsigned long long b)
{
    if (!pl->note) return;
    char msg[400];
    snprintf(msg, sizeof msg, fmt, a, b);
    pl->note(pl->user, msg);
}

static void *poller_main(void *arg)
{
    gdb_poller *pl = arg;
    gdb_conn *g = &pl->g;
    int reader_gone = 0;
    for (;;) {
        int r = poll_once(pl);
        if (r < 0) { reader_gone = 1; break; }
        if (r == 0) break;
        if (pl->g.halt_mode && !resume(g)) break;
        /* Wait one interval, watching the server (a stop or an exit) and our reader (gone). */
        struct pollfd p[2] = {{g->fd, POLLIN, 0}, {pl->out, 0, 0}};
        uint64_t until = now_ms() + pl->poll_ms;
        int stop = 0;
        while (!stop && now_ms() < until) {
            int pr = poll(p, 2, (int)(until - now_ms()));
            if (pr < 0 && errno == EINTR) continue;
            if (pr <= 0) break;
            if (p[1].revents & (POLLHUP | POLLERR)) { reader_gone = 1; stop = 1; break; }
            if (p[0].revents) {
                int k = recv_pkt(g, 100);
                if (k < 0) stop = 1;
                else if (k > 0 && is_exit(g->pkt)) { saw_exit(g); stop = 1; }
                else if (k > 0 && is_stop(g->pkt)) g->running = 0; /* stopped on its own (a breakpoint) */
            }
        }
        if (stop || g->exited) break;
        if (pl->g.halt_mode && !halt(g)) break;
    }
    if (!g->exited) { /* let the target run on without us */
        if (g->running && pl->g.halt_mode) halt(g);
        send_pkt(g, "D");
        recv_pkt(g, 500);
    }
    if (reader_gone) note(pl, "%s: stream closed; detached from the target after %llu bytes", pl->spec,
                          (unsigned long long)pl->forwarded);
    else note(pl, "%s: %llu bytes read over RTT; the stream ends", g->why[0] ? g->why : "stopped",
              (unsigned long long)pl->forwarded);
    close(g->fd);
    close(pl->out);
    evt_free(pl);
    pthread_mutex_lock(&g_live_mu);
    g_live_pollers--;
    pthread_cond_broadcast(&g_live_cv);
    pthread_mutex_unlock(&g_live_mu);
    return NULL;
}

int evt_source_gdb_wait(unsigned timeout_ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += (time_t)(timeout_ms / 1000u);
    ts.tv_nsec += (long)(timeout_ms % 1000u) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
    pthread_mutex_lock(&g_live_mu);
    while (g_live_pollers && pthread_cond_timedwait(&g_live_cv, &g_live_mu, &ts) == 0) {
    }
    int none = g_live_pollers == 0;
    pthread_mutex_unlock(&g_live_mu);
    return none;
}

int evt_rtt_where_parse(const char *s, evt_rtt_where *w)
{
    memset(w, 0, sizeof *w);
    if (!s || !*s) return 1;
    char *end;
    errno = 0;
    unsigned long long a = strtoull(s, &end, 0);
    if (end == s || errno || s[0] == '-') return 0;
    if (*end == ':') {
        const char *l = end + 1;
        unsigned long long n = strtoull(l, &end, 0);
        if (end == l || *end || errno || n == 0 || l[0] == '-' || n > 0x40000000ull) return 0;
        w->search_lo = a;
        w->search_len = n;
        return 1;
    }
    if (*end) return 0;
    w->addr = a;
    w->has_addr = 1;
    return 1;
}

/* Find the block (target halted on return, or exited): by address, or by searching, letting the
 * target run between tries while the firmware has not set it up. */
static int find_block(gdb_poller *pl, const evt_rtt_where *w, unsigned idle_ms, char *err, size_t errlen)
{
    gdb_conn *g = &pl->g;
    uint64_t lo = w->search_len ? w->search_lo : EVT_RTT_SEARCH_DEFAULT_LO;
    uint64_t len = w->search_len ? w->search_len : EVT_RTT_SEARCH_DEFAULT_LEN;
    uint64_t give_up = now_ms() + (idle_ms ? idle_ms : 10000u);
    for (;;) {
        if (!halt(g)) { snprintf(err, errlen, "%s", g->why); return 0; }
        if (w->has_addr) {
            uint8_t id[sizeof RTT_ID];
            if (!read_mem(g, w->addr, id, sizeof id)) { snprintf(err, errlen, "%s", g->why); return 0; }
            if (memcmp(id, RTT_ID, sizeof id) == 0) { pl->cb = w->addr; break; }
        } else {
            uint64_t at;
            if (search_id(g, lo, len, &at)) { pl->cb = at; break; }
            if (g->exited || g->why[0]) { snprintf(err, errlen, "%s", g->why); return 0; }
        }
        if (now_ms() >= give_up) {
            if (w->has_addr) snprintf(err, errlen, "no RTT control block at 0x%llx (no \"SEGGER RTT\" id there)",
                                      (unsigned long long)w->addr);
            else snprintf(err, errlen, "no RTT control block (\"SEGGER RTT\") in 0x%llx..0x%llx; give its address "
                                       "(--rtt ADDR, --elf FILE) or the range to search (--rtt ADDR:LEN)",
                          (unsigned long long)lo, (unsigned long long)(lo + len));
            return 0;
        }
        if (!resume(g)) { snprintf(err, errlen, "%s", g->why); return 0; }
        sleep_ms(100);
    }
    return check_block(g, pl->cb, pl->channel, err, errlen);
}

/* Can the server read memory while the target runs? Continue, ask for the id, see what comes:
 * the memory (it can), or a stop reply (it stopped the target to answer: poll by halting). */
static int probe_mode(gdb_poller *pl, char *err, size_t errlen)
{
    gdb_conn *g = &pl->g;
    if (!resume(g)) { snprintf(err, errlen, "%s", g->why); return 0; }
    sleep_ms(20);
    char cmd[48];
    snprintf(cmd, sizeof cmd, "m%llx,%x", (unsigned long long)pl->cb, 4u);
    if (!send_pkt(g, cmd)) { snprintf(err, errlen, "%s", g->why); return 0; }
    int r = recv_pkt(g, 500);
    if (r < 0) { snprintf(err, errlen, "%s", g->why); return 0; }
    if (r > 0 && is_exit(g->pkt)) { saw_exit(g); snprintf(err, errlen, "%s", g->why); return 0; }
    if (r > 0 && !is_stop(g->pkt)) { g->halt_mode = 0; return 1; } /* read while running */
    g->halt_mode = 1;
    if (r > 0) {
        g->running = 0;
        recv_pkt(g, 100); /* a server that also answers the read afterwards */
        return 1;
    }
    /* No answer while running: interrupt and take whatever replies come. */
    if (!halt(g)) { snprintf(err, errlen, "%s", g->why); return 0; }
    while (recv_pkt(g, 100) > 0) {
    }
    return 1;
}

evt_status evt_source_gdb_rtt(evt_source *src, const char *spec, const evt_rtt_where *w, unsigned idle_ms,
                              void (*note_fn)(void *user, const char *msg), void *user, char *err, size_t errlen)
{
    memset(src, 0, sizeof *src);
    gdb_poller *pl = evt_calloc(1, sizeof *pl);
    if (!pl) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    pl->channel = w->channel;
    pl->poll_ms = w->poll_ms ? w->poll_ms : 10u;
    pl->note = note_fn;
    pl->user = user;
    pl->out = -1;
    snprintf(pl->spec, sizeof pl->spec, "%s", spec);
    gdb_conn *g = &pl->g;
    g->fd = evt_remote_connect(spec, "--gdb", idle_ms, err, errlen);
    if (g->fd < 0) {
        evt_status st = g->fd == -2 ? EVT_ERR_USAGE : EVT_ERR_IO;
        evt_free(pl);
        return st;
    }
    /* Why is the target stopped (or is it)? Servers stop it when GDB attaches; some report more than
     * one stop: take them all. */
    send_all(g->fd, "+", 1);
    g->running = 1; /* unknown: the first halt() sends an interrupt if no stop reply says otherwise */
    if (command(g, "?") && is_stop(g->pkt)) g->running = 0;
    while (recv_pkt(g, 100) > 0)
        if (is_stop(g->pkt)) g->running = 0;
    int sv[2] = {-1, -1};
    evt_status st = EVT_ERR_IO;
    if (!g->exited && find_block(pl, w, idle_ms, err, errlen) && probe_mode(pl, err, errlen)) {
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
            snprintf(err, errlen, "socketpair: %s", strerror(errno));
        } else {
            pl->out = sv[1];
            char msg[200];
            snprintf(msg, sizeof msg, "RTT control block at 0x%llx, up buffer %u; %s", (unsigned long long)pl->cb,
                     pl->channel, g->halt_mode ? "the server cannot read memory while the target runs: "
                                                 "interrupt, read, continue every poll"
                                               : "read while the target runs");
            if (note_fn) note_fn(user, msg);
            pthread_t th;
            pthread_mutex_lock(&g_live_mu);
            g_live_pollers++;
            pthread_mutex_unlock(&g_live_mu);
            if (pthread_create(&th, NULL, poller_main, pl) != 0) {
                pthread_mutex_lock(&g_live_mu);
                g_live_pollers--;
                pthread_mutex_unlock(&g_live_mu);
                snprintf(err, errlen, "cannot start the polling thread");
            } else {
                pthread_detach(th);
                pl = NULL; /* the thread owns it now */
                st = evt_source_open_stream(src, sv[0], spec, 0, idle_ms);
                if (st != EVT_OK) { snprintf(err, errlen, "out of memory"); evt_source_close(src); }
                return st;
            }
        }
    } else if (g->exited && !err[0]) {
        snprintf(err, errlen, "%s", g->why);
    }
    if (sv[0] >= 0) close(sv[0]);
    if (sv[1] >= 0) close(sv[1]);
    if (pl) {
        if (!g->exited) { send_pkt(g, "D"); recv_pkt(g, 300); }
        close(g->fd);
        evt_free(pl);
    }
    return st;
}

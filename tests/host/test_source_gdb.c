/* The RTT-through-GDB source (src/host/source_gdb.c) against a fake GDB server in a thread: a
 * target with 64 KiB of RAM whose "firmware" writes a known byte pattern into an RTT up buffer
 * (WrOff after the bytes, room by RdOff) only while the target runs, and exits (W00) when all is
 * written and read. The server checks every packet's checksum, answers with run-length encoded
 * replies, and behaves either like QEMU (a packet while running stops the target and is dropped:
 * the client must interrupt, read, continue) or like a server that reads memory while the target
 * runs. Checks: every byte arrives in order (bytes == pattern), the block is found by searching
 * (also when the firmware sets it up only after a few continues), by address, and a wrong address
 * is a clear error. Also evt_rtt_where_parse. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "evtrace/source_remote.h"

#define RAM 0x20000000u
#define RAM_SIZE 0x10000u
#define CB 0x20001000u
#define BUF 0x20002000u
#define BUF_SIZE 256u
#define TOTAL 6000u

typedef struct fake {
    int ls, fd;
    int read_while_running;   /* 0: QEMU-like */
    int setup_after;          /* the firmware writes the block after this many continues */
    uint8_t ram[RAM_SIZE];
    int running, continues, setup_done;
    uint32_t produced;
    int bad_checksums, interrupts, mem_while_running;
} fake;

static uint8_t pat(uint32_t i) { return (uint8_t)(i * 7u % 251u); }
static uint32_t rd32(fake *f, uint32_t a) { uint8_t *p = f->ram + (a - RAM); return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void wr32(fake *f, uint32_t a, uint32_t v) { uint8_t *p = f->ram + (a - RAM); p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }

static void setup_block(fake *f)
{
    uint32_t d = CB + 24;
    wr32(f, CB + 16, 1);
    wr32(f, CB + 20, 1);
    wr32(f, d + 0, 0);
    wr32(f, d + 4, BUF);
    wr32(f, d + 8, BUF_SIZE);
    wr32(f, d + 12, 0);
    wr32(f, d + 16, 0);
    memcpy(f->ram + (CB - RAM), "SEGGER RTT", 11);
    f->setup_done = 1;
}

/* The firmware runs a little: as many pattern bytes as there is room for (at most 120). */
static void firmware_step(fake *f)
{
    if (!f->setup_done) return;
    uint32_t d = CB + 24, wr = rd32(f, d + 12), rd = rd32(f, d + 16);
    for (int k = 0; k < 120 && f->produced < TOTAL; k++) {
        if ((wr + 1) % BUF_SIZE == rd) break;
        f->ram[BUF - RAM + wr] = pat(f->produced++);
        wr = (wr + 1) % BUF_SIZE;
    }
    wr32(f, d + 12, wr);
}

static void send_pkt(fake *f, const char *p)
{
    /* run-length encode runs of 4..6 equal bytes as X*n (n = 29 + repeats: ' ', '!', '"') */
    char out[8192];
    size_t n = 0;
    out[n++] = '$';
    unsigned sum = 0;
    for (size_t i = 0; p[i];) {
        size_t r = 1;
        while (p[i + r] == p[i] && r < 6) r++;
        if (r >= 4) {
            out[n++] = p[i]; out[n++] = '*'; out[n++] = (char)(29 + r - 1);
            sum += (unsigned char)p[i] + '*' + (unsigned)(29 + r - 1);
        } else {
            for (size_t k = 0; k < r; k++) { out[n++] = p[i]; sum += (unsigned char)p[i]; }
        }
        i += r;
    }
    n += (size_t)snprintf(out + n, sizeof out - n, "#%02x", sum & 0xFFu);
    assert_int_equal(send(f->fd, out, n, MSG_NOSIGNAL), (ssize_t)n);
}

static int hexv(int c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

/* Read one client packet (or the interrupt byte) within ms: 1 packet in buf, 2 interrupt, 0
 * timeout, -1 closed. */
static int recv_client(fake *f, char *buf, size_t cap, int ms)
{
    char c;
    for (;;) {
        struct pollfd p = {f->fd, POLLIN, 0};
        if (poll(&p, 1, ms) <= 0) return 0;
        if (recv(f->fd, &c, 1, 0) != 1) return -1;
        if (c == 0x03) return 2;
        if (c == '$') break;
    }
    size_t n = 0;
    unsigned sum = 0;
    while (recv(f->fd, &c, 1, 0) == 1 && c != '#') {
        if (n + 1 < cap) buf[n++] = c;
        sum += (unsigned char)c;
    }
    buf[n] = '\0';
    char cs[2];
    if (recv(f->fd, cs, 1, MSG_WAITALL) != 1 || recv(f->fd, cs + 1, 1, MSG_WAITALL) != 1) return -1;
    if ((unsigned)(hexv(cs[0]) * 16 + hexv(cs[1])) != (sum & 0xFFu)) f->bad_checksums++;
    send(f->fd, "+", 1, MSG_NOSIGNAL);
    return 1;
}

static void *server_main(void *arg)
{
    fake *f = arg;
    f->fd = accept(f->ls, NULL, NULL);
    int one = 1; /* small packets at once (as gdbstubs do): no Nagle delay behind the '+' */
    setsockopt(f->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char pkt[4096], reply[8192];
    for (;;) {
        int k = recv_client(f, pkt, sizeof pkt, 1);
        if (k < 0) break;
        if (k == 0) {
            if (f->running) {
                firmware_step(f);
                uint32_t d = CB + 24;
                if (f->produced == TOTAL && rd32(f, d + 12) == rd32(f, d + 16)) { send_pkt(f, "W00"); break; }
            }
            continue;
        }
        if (k == 2) {
            if (f->running) { f->interrupts++; f->running = 0; send_pkt(f, "T02thread:01;"); }
            continue;
        }
        if (pkt[0] == 'm' && f->running) {
            f->mem_while_running++;
            if (!f->read_while_running) { f->running = 0; send_pkt(f, "T02thread:01;"); continue; } /* dropped */
        }
        if (pkt[0] == '?') send_pkt(f, f->running ? "OK" : "S05");
        else if (pkt[0] == 'c') {
            f->running = 1;
            if (++f->continues >= f->setup_after && !f->setup_done) setup_block(f);
        } else if (pkt[0] == 'D') { send_pkt(f, "OK"); f->running = 1; }
        else if (pkt[0] == 'm') {
            unsigned long a, n;
            sscanf(pkt + 1, "%lx,%lx", &a, &n);
            if (a < RAM || a + n > RAM + RAM_SIZE || n > 2048) { send_pkt(f, "E14"); continue; }
            for (unsigned long i = 0; i < n; i++) snprintf(reply + 2 * i, 3, "%02x", f->ram[a - RAM + i]);
            reply[2 * n] = '\0';
            send_pkt(f, reply);
        } else if (pkt[0] == 'M') {
            unsigned long a, n;
            char *colon = strchr(pkt, ':');
            sscanf(pkt + 1, "%lx,%lx", &a, &n);
            for (unsigned long i = 0; colon && i < n; i++)
                f->ram[a - RAM + i] = (uint8_t)(hexv(colon[1 + 2 * i]) * 16 + hexv(colon[2 + 2 * i]));
            send_pkt(f, "OK");
        } else send_pkt(f, "");
    }
    close(f->fd);
    return NULL;
}

static int start(fake *f, pthread_t *th, char *spec, size_t n)
{
    f->ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof a;
    if (bind(f->ls, (struct sockaddr *)&a, sizeof a) != 0 || listen(f->ls, 1) != 0 ||
        getsockname(f->ls, (struct sockaddr *)&a, &sl) != 0)
        return 0;
    snprintf(spec, n, "127.0.0.1:%u", ntohs(a.sin_port));
    return pthread_create(th, NULL, server_main, f) == 0;
}

static void run_case(int read_while_running, int setup_after, const char *rtt)
{
    fake *f = calloc(1, sizeof *f);
    f->read_while_running = read_while_running;
    f->setup_after = setup_after;
    if (setup_after == 0) setup_block(f);
    pthread_t th;
    char spec[64], err[300] = "";
    assert_true(start(f, &th, spec, sizeof spec));
    evt_rtt_where w;
    assert_true(evt_rtt_where_parse(rtt, &w));
    w.poll_ms = 2;
    evt_source src;
    evt_status st = evt_source_gdb_rtt(&src, spec, &w, 5000, NULL, NULL, err, sizeof err);
    if (st != EVT_OK) fail_msg("gdb rtt: %s", err);
    uint8_t *got = malloc(TOTAL + 16);
    uint64_t pos = 0;
    size_t n;
    while ((n = evt_source_read_at(&src, pos, got + pos, TOTAL + 16 - pos)) > 0) pos += n;
    assert_int_equal(pos, TOTAL);
    for (uint32_t i = 0; i < TOTAL; i++)
        if (got[i] != pat(i)) fail_msg("byte %u: 0x%02x, expected 0x%02x", i, got[i], pat(i));
    evt_source_close(&src);
    pthread_join(th, NULL);
    assert_true(evt_source_gdb_wait(2000));
    assert_int_equal(f->bad_checksums, 0);
    if (read_while_running) assert_int_equal(f->interrupts, 0); /* only read, never halted */
    else assert_true(f->interrupts > 10);                       /* interrupt, read, continue */
    close(f->ls);
    free(got);
    free(f);
}

static void test_halting_server_search(void **s) { (void)s; run_case(0, 0, ""); }
static void test_halting_server_late_block(void **s) { (void)s; run_case(0, 3, "0x20000000:0x8000"); }
static void test_reads_while_running(void **s) { (void)s; run_case(1, 0, "0x20001000"); }

static void test_wrong_address(void **s)
{
    (void)s;
    fake *f = calloc(1, sizeof *f);
    setup_block(f);
    pthread_t th;
    char spec[64], err[300] = "";
    assert_true(start(f, &th, spec, sizeof spec));
    evt_rtt_where w;
    assert_true(evt_rtt_where_parse("0x20001100", &w));
    evt_source src;
    evt_status st = evt_source_gdb_rtt(&src, spec, &w, 300, NULL, NULL, err, sizeof err);
    assert_int_equal(st, EVT_ERR_IO);
    assert_non_null(strstr(err, "no RTT control block at 0x20001100"));
    pthread_join(th, NULL);
    close(f->ls);
    free(f);
}

static void test_where_parse(void **s)
{
    (void)s;
    evt_rtt_where w;
    assert_true(evt_rtt_where_parse("", &w));
    assert_false(w.has_addr);
    assert_int_equal(w.search_len, 0);
    assert_true(evt_rtt_where_parse("0x20000400", &w));
    assert_true(w.has_addr);
    assert_int_equal(w.addr, 0x20000400u);
    assert_true(evt_rtt_where_parse("536870912:65536", &w));
    assert_false(w.has_addr);
    assert_int_equal(w.search_lo, 0x20000000u);
    assert_int_equal(w.search_len, 65536);
    assert_false(evt_rtt_where_parse("0x2000zz", &w));
    assert_false(evt_rtt_where_parse("-5", &w));
    assert_false(evt_rtt_where_parse("0x100:0", &w));
    assert_false(evt_rtt_where_parse("0x100:", &w));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_where_parse),
        cmocka_unit_test(test_halting_server_search),
        cmocka_unit_test(test_halting_server_late_block),
        cmocka_unit_test(test_reads_while_running),
        cmocka_unit_test(test_wrong_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* --listen's TCP server (evt_source_listen, src/host/source_net.c, with source_sock.c's split and
 * resolve): a bare PORT listens on 127.0.0.1 (announced so) and a client's bytes come back exactly;
 * a named host is used as given; no connection within the idle limit is the end with the reason;
 * bad specs are usage errors naming --listen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>
#include "evtrace/source.h"

/* A port free on the loopback just now (bound to 0, then released). */
static unsigned free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t al = sizeof a;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static char g_where[300];
static unsigned g_port;

/* The client: connects once the server has announced itself, sends 64 KiB, closes. */
static void *client(void *arg)
{
    (void)arg;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)g_port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < 200 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0; i++) {
        close(fd);
        nanosleep(&(struct timespec){0, 10000000}, NULL);
        fd = socket(AF_INET, SOCK_STREAM, 0);
    }
    uint8_t buf[65536];
    for (uint32_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 7u + 1u);
    send(fd, buf, sizeof buf, MSG_NOSIGNAL);
    close(fd);
    return NULL;
}

static void announce(void *user, const char *where)
{
    (void)user;
    snprintf(g_where, sizeof g_where, "%s", where);
}

static void test_bare_port(void **s)
{
    (void)s;
    char spec[16], err[200], want[40];
    g_port = free_port();
    snprintf(spec, sizeof spec, "%u", g_port);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, client, NULL), 0);
    evt_source src;
    assert_int_equal(evt_source_listen(&src, spec, 5000, announce, NULL, err, sizeof err), EVT_OK);
    snprintf(want, sizeof want, "127.0.0.1:%u", g_port);
    assert_string_equal(g_where, want);
    uint8_t got[70000];
    size_t pos = 0;
    size_t n;
    while ((n = evt_source_read_at(&src, pos, got + pos, sizeof got - pos)) > 0) pos += n;
    assert_int_equal(pos, 65536);
    for (uint32_t i = 0; i < 65536; i++)
        if (got[i] != (uint8_t)(i * 7u + 1u)) fail_msg("byte %u differs", i);
    evt_source_close(&src);
    pthread_join(th, NULL);
}

static void test_no_connection(void **s)
{
    (void)s;
    char spec[40], err[200];
    unsigned port = free_port();
    snprintf(spec, sizeof spec, "127.0.0.1:%u", port);
    evt_source src;
    g_where[0] = 0;
    assert_int_equal(evt_source_listen(&src, spec, 50, announce, NULL, err, sizeof err), EVT_END);
    assert_string_equal(g_where, spec);
    assert_string_equal(err, "no connection within 50 ms");
}

static void test_bad_specs(void **s)
{
    (void)s;
    evt_source src;
    char err[200];
    static const char *const bad[] = {"", "host:", "host:0", "70000", ":4000", "::1:4000", "12x", "[]:4000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(evt_source_listen(&src, bad[i], 50, NULL, NULL, err, sizeof err), EVT_ERR_USAGE);
        assert_non_null(strstr(err, "--listen needs [HOST:]PORT"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bare_port),
        cmocka_unit_test(test_no_connection),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

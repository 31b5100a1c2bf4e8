/* --connect's TCP client (evt_source_connect, src/host/source_tcp.c): a local server sends 300 KB
 * in uneven pieces and closes; the source returns exactly those bytes, then its end. Bad specs are
 * usage errors with the reason; a port nobody listens on is an I/O error naming the address. */
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
#include <sys/socket.h>
#include <unistd.h>
#include "evtrace/source_remote.h"

#define TOTAL 300000u
static int g_ls;

static void *server(void *arg)
{
    (void)arg;
    int fd = accept(g_ls, NULL, NULL);
    uint8_t buf[7000];
    uint32_t sent = 0, piece = 1;
    while (sent < TOTAL) {
        uint32_t k = piece < TOTAL - sent ? piece : TOTAL - sent;
        for (uint32_t i = 0; i < k; i++) buf[i] = (uint8_t)((sent + i) * 13u);
        send(fd, buf, k, MSG_NOSIGNAL);
        sent += k;
        piece = piece * 3 % 6997 + 1;
    }
    close(fd);
    return NULL;
}

static void test_stream(void **s)
{
    (void)s;
    g_ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof a;
    assert_int_equal(bind(g_ls, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(g_ls, 1), 0);
    assert_int_equal(getsockname(g_ls, (struct sockaddr *)&a, &sl), 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, server, NULL), 0);
    char spec[64], err[200];
    snprintf(spec, sizeof spec, "127.0.0.1:%u", ntohs(a.sin_port));
    evt_source src;
    assert_int_equal(evt_source_connect(&src, spec, 5000, err, sizeof err), EVT_OK);
    uint8_t *got = malloc(TOTAL + 100);
    uint64_t pos = 0;
    size_t n;
    while ((n = evt_source_read_at(&src, pos, got + pos, TOTAL + 100 - pos)) > 0) pos += n;
    assert_int_equal(pos, TOTAL);
    for (uint32_t i = 0; i < TOTAL; i++)
        if (got[i] != (uint8_t)(i * 13u)) fail_msg("byte %u differs", i);
    assert_null(evt_source_failure(&src));
    evt_source_close(&src);
    pthread_join(th, NULL);
    /* nobody listens there any more */
    close(g_ls);
    assert_int_equal(evt_source_connect(&src, spec, 2000, err, sizeof err), EVT_ERR_IO);
    assert_non_null(strstr(err, "cannot connect to 127.0.0.1:"));
    free(got);
}

static void test_bad_specs(void **s)
{
    (void)s;
    evt_source src;
    char err[200];
    static const char *const bad[] = {"4000", "host:", "host:0", "host:70000", ":4000", "::1:4000", "h:12x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(evt_source_connect(&src, bad[i], 1000, err, sizeof err), EVT_ERR_USAGE);
        assert_non_null(strstr(err, "--connect needs HOST:PORT"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

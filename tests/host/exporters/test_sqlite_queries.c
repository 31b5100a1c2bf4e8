/* Every example query of docs/sqlite.md on a constructed ThreadX trace whose answers are known by
 * construction: a priority inversion (high blocked on a mutex that low holds while mid runs), a
 * message from mid to high through a queue, ISRs of two interrupts, sleeps, preemptions and a
 * loss. The trace is built with tests/support/trace_builder.h, converted with `evtrace convert`,
 * and each ```sql block (under its ### heading) is run with :t1 = 1100, :t2 = 1500, :from = 'mid',
 * :to = 'high'; its rows must equal the ones written below. A block without an answer here, or an
 * answer whose heading is gone from the docs, fails. The real-trace half is host/sqlite_queries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "trace_builder.h"

enum { H = 0x1000, M = 0x2000, L = 0x3000, Q = 0x4000, X = 0x5000, USER_EVENT = 4096 };

/* The trace, ticks (the clock is unknown). Running: L 1000-1110, H 1110-1120, M 1120-1250,
 * L 1250-1320, H 1320-1460, L 1460-1520, H 1520-1700 (the loss ends it); initialisation runs
 * 1000-1000 (for no time). ISRs: irq 3 1150-1170 (in M) and 1400-1430 (in H), irq 5 1440-1445 (in H). */
static void build(tb_trace *t)
{
    tb_thread(t, H, "high", 5, 0x20010000, 1024);
    tb_thread(t, M, "mid", 10, 0x20011000, 1024);
    tb_thread(t, L, "low", 15, 0x20012000, 1024);
    tb_object(t, TXTB_OBJ_QUEUE, Q, "q", 0, 0);
    tb_object(t, TXTB_OBJ_MUTEX, X, "mx", 0, 0);
    tb_mutex_get(t, 1000, L, X, 0, 0);              /* low takes the mutex */
    tb_resume(t, 1100, L, H, TB_STATE_SLEEP, 0);    /* high ready */
    tb_mutex_get(t, 1110, H, X, L, 1);              /* high runs (low preempted), wants the mutex */
    tb_block(t, 1120, H, TB_STATE_MUTEX, M);        /* high blocked on mx: mid runs */
    tb_isr_enter(t, 1150, 3, M);
    tb_isr_exit(t, 1170, 3, M);
    tb_queue_send(t, 1180, M, Q, 0);                /* the message mid -> high */
    tb_ev(t, 1240, M, TXTB_EVENT_THREAD_SLEEP, 100, 0, 0, 0);
    tb_block(t, 1250, M, TB_STATE_SLEEP, L);        /* mid sleeps to the end: low runs */
    tb_mutex_put(t, 1300, L, X, 1);
    tb_resume(t, 1310, L, H, TB_STATE_MUTEX, 0);    /* low wakes high: the inversion ends */
    tb_queue_receive(t, 1320, H, Q, 1);             /* high runs, receives mid's message */
    tb_isr_enter(t, 1400, 3, H);
    tb_isr_exit(t, 1430, 3, H);
    tb_isr_enter(t, 1440, 5, H);
    tb_isr_exit(t, 1445, 5, H);
    tb_queue_receive(t, 1450, H, Q, 0);
    tb_block(t, 1460, H, TB_STATE_QUEUE, L);        /* high waits on q: low runs */
    tb_queue_send(t, 1500, L, Q, 0);
    tb_resume(t, 1510, L, H, TB_STATE_QUEUE, 0);
    tb_queue_receive(t, 1520, H, Q, 1);             /* high runs */
    tb_ev(t, 1600, H, USER_EVENT, 0, 0, 0, 0);
    tb_rec(t, 1700, H, tb_prio(5), TXTB_EVTRACE_LOST_ID, 3, 0, TXTB_EVTRACE_LOST_MAGIC, 0); /* 3 records dropped */
}

/* The answers, rows as "col|col|..." (NULL for null, REALs as SQLite prints them). */
typedef struct answer {
    const char *heading;
    const char *rows;
    int used;
} answer;

static answer k_answers[] = {
    /* window [1100, 1500] (400 ticks): low 10 + 70 + 40; high 10 + 140 - ISRs 30 + 5; mid 130 - 20 */
    {"CPU load per thread in a window [t1, t2]", "low|120|30.0\nhigh|115|28.75\nmid|110|27.5\n", 0},
    {"Who ran between t1 and t2",
     "low|0|1100|1110\nhigh|0|1110|1120\nmid|0|1120|1250\nlow|0|1250|1320\nhigh|0|1320|1460\nlow|0|1460|1500\n", 0},
    {"Worst ISR latency per interrupt", "3|ISR_ENTER #3|2|30|1400|25.0\n5|ISR_ENTER #5|1|5|1440|5.0\n", 0},
    /* high on mx 1120-1310, on q 1460-1510; mid's sleep has no object and never ends */
    {"Longest time blocked on one queue (or any object)",
     "mx|190|high|1120|MUTEX_GET|1|190\nq|50|high|1460|QUEUE_RECEIVE|1|50\n", 0},
    /* high (5) waits on mx 1120-1310, woken by low (15); mid (10) runs 1120-1250 */
    {"Every priority inversion", "1120|190|high|low|mid|130\n", 0},
    /* low ready 1110-1250 and 1320-1460; high ready 1100-1110, 1310-1320, 1510-1520 */
    {"Ready-to-running latency per thread", "low|2|140|140.0\nhigh|3|10|10.0\n", 0},
    {"Message flows between two tasks", "message|q|1|140|140\n", 0},
    {"Losses: how many and where", "0|1600|1700|100|3|1|3\n", 0},
    /* services recorded as instants: zero-length slices */
    {"Top services by total time",
     "QUEUE_RECEIVE|3|0|0\nMUTEX_GET|2|0|0\nQUEUE_SEND|2|0|0\nMUTEX_PUT|1|0|0\nTHREAD_SLEEP|1|0|0\n", 0},
    /* high: blocked, blocked, then the loss (unknown); low preempted three times; initialisation
     * ran for no time (1000-1000: no interval) */
    {"Context switches per thread", "high|3|2|0\nlow|3|0|3\nmid|1|1|0\n", 0},
    /* queue depth before each send/receive: 0, 1, 0, 0, 1 */
    {"Queue depth and semaphore count over time", "q|queue depth|5|0|1\n", 0},
    /* 700 ticks: high 10 + 140 + 180 - 35, low 110 + 70 + 60, mid 130 - 20, ISRs 55, idle 0 */
    {"CPU load of each context over the whole trace, and idle time",
     "high|thread|295|42.14\nlow|thread|240|34.29\nmid|thread|110|15.71\n(idle)|none|0|NULL\n", 0},
    /* mid sleeps 1250 to the end (1700) */
    {"Time blocked per thread and reason",
     "mid|blocked|THREAD_SLEEP|1|450\nhigh|blocked|MUTEX_GET|1|190\nhigh|blocked|QUEUE_RECEIVE|1|50\n", 0},
};

/* Rows of one query with the test's parameters, "col|col|...\n" each (caller frees). */
static char *run_query(sqlite3 *db, const char *heading, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("query \"%s\": %s", heading, sqlite3_errmsg(db));
    for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
        const char *p = sqlite3_bind_parameter_name(st, i);
        if (!p) fail_msg("query \"%s\": a nameless parameter", heading);
        if (strcmp(p, ":t1") == 0) sqlite3_bind_int64(st, i, 1100);
        else if (strcmp(p, ":t2") == 0) sqlite3_bind_int64(st, i, 1500);
        else if (strcmp(p, ":from") == 0) sqlite3_bind_text(st, i, "mid", -1, SQLITE_STATIC);
        else if (strcmp(p, ":to") == 0) sqlite3_bind_text(st, i, "high", -1, SQLITE_STATIC);
        else fail_msg("query \"%s\": unknown parameter %s", heading, p);
    }
    size_t cap = 4096, n = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const char *v = (const char *)sqlite3_column_text(st, c);
            if (!v) v = "NULL";
            size_t need = n + strlen(v) + 2;
            if (need >= cap) { cap = need * 2; out = realloc(out, cap); }
            n += (size_t)sprintf(out + n, "%s%s", c ? "|" : "", v);
        }
        if (n + 2 >= cap) { cap *= 2; out = realloc(out, cap); }
        out[n++] = '\n';
        out[n] = '\0';
    }
    if (rc != SQLITE_DONE) fail_msg("query \"%s\": %s", heading, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return out;
}

static void documented_queries_on_a_constructed_trace(void **state)
{
    (void)state;
    char trx[4096], db[4096];
    snprintf(trx, sizeof trx, "%s/constructed.trx", evt_test_tmpdir());
    snprintf(db, sizeof db, "%s/constructed.sqlite", evt_test_tmpdir());
    tb_trace *t = tb_new();
    build(t);
    assert_int_equal(tb_write(t, trx), 0);
    tb_free(t);
    remove(db);
    const char *argv[] = {evt_test_bin(), "convert", "-q", trx, "-o", db, NULL};
    char *err = NULL;
    int rc = evt_test_runv(argv, NULL, NULL, &err);
    if (rc != 0) fail_msg("evtrace convert exited %d: %s", rc, err ? err : "");
    free(err);
    sqlite3 *con;
    assert_int_equal(sqlite3_open_v2(db, &con, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);

    /* every ```sql block of the docs, under the latest ### heading */
    size_t len;
    char *doc = (char *)evt_test_read_file(EVT_SOURCE_DIR "/docs/sqlite.md", &len);
    char *text = malloc(len + 1);
    memcpy(text, doc, len);
    text[len] = '\0';
    free(doc);
    const char *heading = NULL;
    char headbuf[256];
    unsigned blocks = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (strncmp(line, "### ", 4) == 0) {
            snprintf(headbuf, sizeof headbuf, "%s", line + 4);
            heading = headbuf;
        } else if (strcmp(line, "```sql") == 0) {
            char *sql = nl + 1, *end = strstr(sql, "\n```");
            if (!end) fail_msg("docs/sqlite.md: an sql block never closed");
            *end = '\0';
            if (!heading) fail_msg("docs/sqlite.md: an sql block with no heading");
            answer *a = NULL;
            for (size_t i = 0; i < sizeof k_answers / sizeof k_answers[0]; i++)
                if (strcmp(k_answers[i].heading, heading) == 0) a = &k_answers[i];
            if (!a) fail_msg("docs/sqlite.md: query \"%s\" has no answer in this test", heading);
            char *got = run_query(con, heading, sql);
            if (strcmp(got, a->rows) != 0)
                fail_msg("query \"%s\":\n got:\n%s want:\n%s", heading, got, a->rows);
            print_message("%-62s ok\n", heading);
            free(got);
            a->used = 1;
            blocks++;
            nl = end + 4; /* past "\n```" */
            nl = strchr(nl, '\n');
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    for (size_t i = 0; i < sizeof k_answers / sizeof k_answers[0]; i++)
        if (!k_answers[i].used) fail_msg("docs/sqlite.md has no query \"%s\" any more", k_answers[i].heading);
    assert_true(blocks >= 10);
    sqlite3_close(con);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(documented_queries_on_a_constructed_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

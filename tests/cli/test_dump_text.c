/* A text line of `evtrace dump` (src/cli/dump_text.c) against the printf formatting it replaced,
 * kept here as the reference: hand-made events (the clock's seconds, a context name longer than
 * its 20 columns, a context without a name, none, a name longer than 28 columns, a lost count,
 * a target name, signed and string fields and a field without a key, text data with a NUL, raw
 * data, lines longer than the 4 KiB buffer) and 20,000 random ones: the same bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "cli/dump_text.h"

/* cmd_dump.c's print_text before dump_text.c. */
static void reference_(FILE *o, const evt_event *ev)
{
    if (ev->flags & EVT_HAS_TNS)
        fprintf(o, "%6" PRIu64 ".%09" PRIu64 "s ", ev->t_ns / 1000000000u, ev->t_ns % 1000000000u);
    fprintf(o, "%12" PRIu64 "  ", ev->ts);
    if (ev->ctx_name) fprintf(o, "%-20.20s ", ev->ctx_name);
    else if (ev->flags & EVT_HAS_CTX) fprintf(o, "0x%-18" PRIx64 " ", ev->ctx);
    else fprintf(o, "%-20s ", "-");
    fprintf(o, "%-28s", ev->name ? ev->name : "?");
    if (ev->kind == EVT_KIND_LOST && (ev->flags & EVT_HAS_COUNT)) fprintf(o, " lost=%" PRIu64, ev->count);
    for (uint32_t i = 0; i < ev->nargs; i++) fprintf(o, " 0x%" PRIx64, ev->args[i]);
    if ((ev->flags & EVT_HAS_TARGET) && ev->target_name) fprintf(o, "  [%s]", ev->target_name);
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        const char *key = f->key ? f->key : "(null)"; /* what glibc prints for a NULL %s */
        if (f->is_str) fprintf(o, " %s=%s", key, f->str ? f->str : "");
        else if (f->is_signed) fprintf(o, " %s=%" PRId64, key, (int64_t)f->num);
        else fprintf(o, " %s=%" PRIu64, key, f->num);
    }
    if (ev->data && ev->data_is_text) fprintf(o, " \"%.*s\"", (int)ev->data_len, (const char *)ev->data);
    else if (ev->data) fprintf(o, " data[%zu]", ev->data_len);
    fputc('\n', o);
}

static void same_(const evt_event *ev)
{
    char *a = NULL, *r = NULL;
    size_t an = 0, rn = 0;
    FILE *fa = open_memstream(&a, &an), *fr = open_memstream(&r, &rn);
    assert_non_null(fa);
    assert_non_null(fr);
    cli_dump_text(fa, ev);
    reference_(fr, ev);
    fclose(fa);
    fclose(fr);
    if (an != rn || memcmp(a, r, rn) != 0) fail_msg("\"%s\" against \"%s\"", a, r);
    free(a);
    free(r);
}

static void hand_made_events(void **state)
{
    (void)state;
    static const char text[] = "said \"hi\"\0hidden";
    static char big[6000];
    memset(big, 'n', sizeof big - 1);
    evt_event ev;
    evt_event_reset(&ev);
    same_(&ev); /* nothing: "-", "?" */
    ev.flags = EVT_HAS_TNS | EVT_HAS_CTX | EVT_HAS_COUNT | EVT_HAS_TARGET;
    ev.t_ns = 1234567890123456789ull;
    ev.ts = UINT64_MAX;
    ev.ctx = 0xd37d5a00;
    same_(&ev); /* 0x<ctx> padded */
    ev.ctx_name = "a thread name longer than twenty";
    ev.name = "a name of more than twenty-eight columns";
    ev.kind = EVT_KIND_LOST;
    ev.count = 42;
    ev.target = 1;
    ev.target_name = "rx queue";
    ev.nargs = 3;
    ev.args[0] = 0;
    ev.args[1] = 0xABCDEF;
    ev.args[2] = UINT64_MAX;
    ev.fields[0] = (evt_field){"priority", 0, 0, 7, NULL};
    ev.fields[1] = (evt_field){"delta", 0, 1, (uint64_t)INT64_MIN, NULL};
    ev.fields[2] = (evt_field){"plus", 0, 1, 5, NULL};
    ev.fields[3] = (evt_field){"state", 1, 0, 0, "SLEEP"};
    ev.fields[4] = (evt_field){"empty", 1, 0, 0, NULL};
    ev.fields[5] = (evt_field){NULL, 0, 0, 9, NULL};
    ev.nfields = 6;
    ev.data = (const uint8_t *)text;
    ev.data_len = sizeof text - 1;
    ev.data_is_text = 1;
    same_(&ev);
    ev.t_ns = 5; /* 0.000000005s */
    ev.ctx_name = "short";
    ev.data_is_text = 0;
    same_(&ev);
    ev.name = big; /* longer than the line buffer */
    ev.fields[3].str = big;
    ev.data = (const uint8_t *)big;
    ev.data_len = sizeof big - 1;
    ev.data_is_text = 1;
    same_(&ev);
}

static uint64_t rng_ = 0x2545F4914F6CDD1Dull;
static uint64_t rnd_(void) { return evt_test_rand(&rng_); }
static uint64_t num_(void) { return evt_test_rand_mag(&rng_); }

static void random_events(void **state)
{
    (void)state;
    static char strs[5][3000];
    for (int i = 0; i < 5; i++) {
        size_t len = i == 4 ? 2999 : (size_t)(i * 11);
        for (size_t c = 0; c < len; c++) strs[i][c] = (char)('!' + (c * 5 + (size_t)i) % 90);
        strs[i][len] = '\0';
    }
    for (int iter = 0; iter < 20000; iter++) {
        evt_event ev;
        evt_event_reset(&ev);
        ev.flags = (unsigned)rnd_() & (EVT_HAS_TNS | EVT_HAS_CTX | EVT_HAS_COUNT | EVT_HAS_TARGET);
        ev.t_ns = num_();
        ev.ts = num_();
        ev.ctx = num_();
        ev.ctx_name = rnd_() % 3 ? NULL : strs[rnd_() % 5];
        ev.name = rnd_() % 4 ? strs[rnd_() % 5] : NULL;
        ev.kind = rnd_() & 1 ? EVT_KIND_LOST : EVT_KIND_USER;
        ev.count = num_();
        ev.target_name = rnd_() & 1 ? strs[rnd_() % 4] : NULL;
        ev.nargs = (uint32_t)(rnd_() % 6);
        for (uint32_t i = 0; i < ev.nargs; i++) ev.args[i] = num_();
        ev.nfields = (uint32_t)(rnd_() % 6);
        for (uint32_t i = 0; i < ev.nfields; i++)
            ev.fields[i] = (evt_field){rnd_() % 9 ? strs[rnd_() % 4] : NULL, (int)(rnd_() % 3 == 0), (int)(rnd_() & 1),
                                       num_(), rnd_() % 5 ? strs[rnd_() % 5] : NULL};
        if (rnd_() & 1) {
            ev.data = (const uint8_t *)strs[rnd_() % 5];
            ev.data_len = (size_t)(rnd_() % 3000);
            ev.data_is_text = (int)(rnd_() & 1);
        }
        same_(&ev);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_made_events),
        cmocka_unit_test(random_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

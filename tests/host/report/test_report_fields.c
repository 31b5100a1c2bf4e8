/* The report's details text (src/host/report/report_fields.c) against the snprintf formatting it
 * replaced, kept here as the reference: hand-made events (every optional member, a target with
 * and without a name, signed and string fields, NUL inside text data, the largest numbers) and
 * 20,000 random ones, each into buffers of every size from 1 to 80 bytes and of 1024 (the
 * report's): the same bytes, truncation and "..." included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "evt_test.h"
#include "host/report/report_fields.h"

/* The formatting of report.c before report_fields.c (snprintf per piece). */
static void reference_(const evt_event *ev, char *b, size_t n)
{
    size_t k = 0;
#define ADD_(...)                                                              \
    do {                                                                       \
        if (k < n) {                                                           \
            int w_ = snprintf(b + k, n - k, __VA_ARGS__);                      \
            k = w_ < 0 ? n : k + (size_t)w_;                                   \
        }                                                                      \
    } while (0)
    b[0] = 0;
    ADD_("id=%" PRIu32, ev->id);
    if (ev->flags & EVT_HAS_CPU) ADD_("\tcpu=%" PRIu32, ev->cpu);
    if (ev->flags & EVT_HAS_PRIO) ADD_("\tprio=%" PRIu64, ev->prio);
    if (ev->flags & EVT_HAS_SEQ) ADD_("\tseq=%" PRIu64, ev->seq);
    if (ev->flags & EVT_HAS_COUNT) ADD_("\tcount=%" PRIu64, ev->count);
    if (ev->flags & EVT_HAS_TARGET) {
        if (ev->target_name) ADD_("\ttarget=%s (0x%" PRIx64 ")", ev->target_name, ev->target);
        else ADD_("\ttarget=0x%" PRIx64, ev->target);
    }
    for (uint32_t i = 0; i < ev->nfields && i < EVT_MAX_FIELDS; i++) {
        const evt_field *f = &ev->fields[i];
        if (!f->key) continue;
        if (f->is_str) ADD_("\t%s=%s", f->key, f->str ? f->str : "");
        else if (f->is_signed) ADD_("\t%s=%" PRId64, f->key, (int64_t)f->num);
        else ADD_("\t%s=%" PRIu64, f->key, f->num);
    }
    if (ev->nargs) {
        ADD_("\targs=");
        for (uint32_t i = 0; i < ev->nargs && i < EVT_MAX_ARGS; i++) ADD_("%s0x%" PRIx64, i ? "," : "", ev->args[i]);
    }
    if (ev->data && ev->data_len) {
        if (ev->data_is_text) ADD_("\ttext=%.*s", ev->data_len > 200 ? 200 : (int)ev->data_len, (const char *)ev->data);
        else ADD_("\tdata=%zu bytes", ev->data_len);
    }
#undef ADD_
    if (k >= n && n > 4) memcpy(b + n - 4, "...", 4);
}

/* ev into every buffer size: the same bytes as the reference (the whole buffer up to its NUL). */
static void same_at_every_size_(const evt_event *ev)
{
    char a[1024], r[1024];
    for (size_t n = 1; n <= 1024; n = n < 80 ? n + 1 : 1024) {
        memset(a, 0x5A, sizeof a);
        memset(r, 0x5A, sizeof r);
        rp_field_text(ev, a, n);
        reference_(ev, r, n);
        if (memcmp(a, r, n) != 0) fail_msg("size %zu: \"%s\" against \"%s\"", n, a, r);
        if (n < sizeof a) assert_int_equal((unsigned char)a[n], 0x5A); /* nothing past the buffer */
        if (n == 1024) break;
    }
}

static void hand_made_events(void **state)
{
    (void)state;
    static const char text[] = "hello\0hidden";
    static char longtext[300];
    memset(longtext, 'x', sizeof longtext - 1);
    evt_event ev;
    evt_event_reset(&ev);
    ev.id = UINT32_MAX;
    same_at_every_size_(&ev); /* the id alone */
    ev.flags = EVT_HAS_CPU | EVT_HAS_PRIO | EVT_HAS_SEQ | EVT_HAS_COUNT | EVT_HAS_TARGET;
    ev.cpu = 3;
    ev.prio = UINT64_MAX;
    ev.seq = 0;
    ev.count = 12345678901234567890ull;
    ev.target = 0x20001000;
    ev.target_name = "rx queue";
    ev.fields[0] = (evt_field){"priority", 0, 0, 7, NULL};
    ev.fields[1] = (evt_field){"delta", 0, 1, (uint64_t)INT64_MIN, NULL};
    ev.fields[2] = (evt_field){"state", 1, 0, 0, "SLEEP"};
    ev.fields[3] = (evt_field){"empty", 1, 0, 0, NULL};
    ev.fields[4] = (evt_field){NULL, 0, 0, 9, NULL}; /* no key: left out */
    ev.fields[5] = (evt_field){"minus one", 0, 1, (uint64_t)-1, NULL};
    ev.nfields = 6;
    ev.nargs = 4;
    ev.args[0] = 0;
    ev.args[1] = 0xF;
    ev.args[2] = 0xDEADBEEF;
    ev.args[3] = UINT64_MAX;
    ev.data = (const uint8_t *)text;
    ev.data_len = sizeof text - 1;
    ev.data_is_text = 1; /* stops at the NUL */
    same_at_every_size_(&ev);
    ev.target_name = NULL;
    ev.data = (const uint8_t *)longtext; /* 299 bytes: the first 200 */
    ev.data_len = sizeof longtext - 1;
    same_at_every_size_(&ev);
    ev.data_is_text = 0; /* "data=299 bytes" */
    same_at_every_size_(&ev);
    char whole[1024];
    rp_field_text(&ev, whole, sizeof whole);
    assert_string_equal(whole, "id=4294967295\tcpu=3\tprio=18446744073709551615\tseq=0\tcount=12345678901234567890"
                               "\ttarget=0x20001000\tpriority=7\tdelta=-9223372036854775808\tstate=SLEEP\tempty="
                               "\tminus one=-1\targs=0x0,0xf,0xdeadbeef,0xffffffffffffffff\tdata=299 bytes");
}

static uint64_t rng_ = 0x9E3779B97F4A7C15ull;
static uint64_t rnd_(void) { return evt_test_rand(&rng_); }
static uint64_t num_(void) { return evt_test_rand_mag(&rng_); }

static void random_events(void **state)
{
    (void)state;
    static const char *const keys[] = {"a", "priority", "preemption_threshold", "k", "very long key name of a field"};
    static char strs[4][120];
    for (int i = 0; i < 4; i++) {
        size_t len = (size_t)(i * 37) % 119;
        for (size_t c = 0; c < len; c++) strs[i][c] = (char)(' ' + (c * 7 + (size_t)i) % 90);
        strs[i][len] = '\0';
    }
    static char data[260];
    for (int iter = 0; iter < 20000; iter++) {
        evt_event ev;
        evt_event_reset(&ev);
        ev.id = (uint32_t)num_();
        ev.flags = (unsigned)rnd_() & (EVT_HAS_CPU | EVT_HAS_PRIO | EVT_HAS_SEQ | EVT_HAS_COUNT | EVT_HAS_TARGET);
        ev.cpu = (uint32_t)num_();
        ev.prio = num_();
        ev.seq = num_();
        ev.count = num_();
        ev.target = num_();
        ev.target_name = rnd_() & 1 ? strs[rnd_() % 4] : NULL;
        ev.nfields = (uint32_t)(rnd_() % 7);
        for (uint32_t i = 0; i < ev.nfields; i++) {
            evt_field *f = &ev.fields[i];
            f->key = rnd_() % 8 ? keys[rnd_() % 5] : NULL;
            f->is_str = (int)(rnd_() % 3 == 0);
            f->is_signed = (int)(rnd_() & 1);
            f->num = num_();
            f->str = rnd_() % 5 ? strs[rnd_() % 4] : NULL;
        }
        ev.nargs = (uint32_t)(rnd_() % 6);
        for (uint32_t i = 0; i < ev.nargs; i++) ev.args[i] = num_();
        if (rnd_() & 1) {
            size_t len = (size_t)(rnd_() % sizeof data);
            for (size_t c = 0; c < len; c++) data[c] = (char)(rnd_() % 40 ? 'a' + rnd_() % 26 : 0);
            ev.data = (const uint8_t *)data;
            ev.data_len = len;
            ev.data_is_text = (int)(rnd_() & 1);
        }
        same_at_every_size_(&ev);
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

/* ETW: enables of one provider into two sessions at once (concurrency label, also under TSan). The
 * two sessions' sections do not exclude each other; before the fix both enables could find the
 * provider disabled and link it into both lists, or a disable that read the old session unlinked it
 * there while it was already in the other list: the lists then shared a tail or formed a cycle
 * (an outside stress program that moved providers between two sessions while signal handlers
 * re-enabled them hung in unlink_provider). Now a provider is in exactly the list of the session
 * it names. Two threads race an enable into session A against an enable into B, or a disable
 * against an enable, from a shared start line, many rounds (the old code failed in about every
 * second pass of 20000 rounds, with 1 to 80% of the rounds broken). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include "evt_etw_test.h"
#include "evtrace/etw.h"

#define BUF_SIZE 4096u
#define ROUNDS 20000u
#define PASSES 8 /* whether the two threads overlap at all varies from pass to pass (placement) */

static _Alignas(8) uint8_t g_mem[2][BUF_SIZE];
static evt_etw_session g_s[2];
static evt_etw_provider g_prov;
static const evt_etw_guid k_guid = {0xe4ab1e00u, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
static atomic_uint g_arrived;  /* barrier: arrivals so far (two per crossing) */
static int g_disable_first;     /* thread 0 disables instead of enabling into A */
static unsigned g_bad;          /* rounds that left the lists broken (thread 0) */

static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user, (void)off, (void)p, (void)n;
    return 0;
}

/* Both threads cross the n-th barrier together: spin (they leave it within a few ns of each other),
 * yielding after a while (two cores shared with other work: a spinner must not starve its peer). */
static void barrier(unsigned n)
{
    atomic_fetch_add(&g_arrived, 1u);
    for (unsigned k = 0; atomic_load(&g_arrived) < 2u * n; k++)
        if (k > 2000u) sched_yield();
}

/* Times p is on s's list (a walk of at most 8 links: a cycle shows as 8 or more). */
static unsigned on_list(const evt_etw_session *s, const evt_etw_provider *p)
{
    unsigned n = 0, steps = 0;
    for (const evt_etw_provider *q = s->providers; q && steps < 8u; q = q->next_enabled, steps++)
        n += q == p;
    return steps == 8u ? 8u : n;
}

/* Thread 0 between rounds: check the lists against the provider's session, repair them if broken
 * (an unlink would walk a cycle forever), set the start state. */
static void check_and_reset(unsigned r)
{
    evt_etw_session *owner = atomic_load((evt_etw_session *_Atomic *)&g_prov.session);
    unsigned in0 = on_list(&g_s[0], &g_prov), in1 = on_list(&g_s[1], &g_prov);
    if (in0 != (owner == &g_s[0]) || in1 != (owner == &g_s[1]) || (!owner && evt_gate_bits(&g_prov.gate))) {
        if (g_bad++ < 5)
            print_message("round %u: session %s, on A's list %u, on B's %u\n", r,
                          owner == &g_s[0] ? "A" : owner == &g_s[1] ? "B" : "none", in0, in1);
        g_s[0].providers = g_s[1].providers = NULL;
        g_prov.next_enabled = NULL;
        g_prov.session = NULL;
    }
    /* start state: enabled in A (the disable race) or disabled (the two-enables race) */
    if (g_disable_first) (void)evt_etw_enable(&g_s[0], &g_prov, ETW_CONTROL_ENABLE_PROVIDER, 1, 0, 0);
    else (void)evt_etw_enable(NULL, &g_prov, ETW_CONTROL_DISABLE_PROVIDER, 0, 0, 0);
}

static void *racer(void *arg)
{
    int i = (int)(intptr_t)arg;
    for (unsigned r = 1; r <= ROUNDS; r++) {
        if (i == 0) check_and_reset(r);
        barrier(2u * r - 1u);
        if (i == 0 && g_disable_first)
            (void)evt_etw_enable(NULL, &g_prov, ETW_CONTROL_DISABLE_PROVIDER, 0, 0, 0);
        else
            (void)evt_etw_enable(&g_s[i], &g_prov, ETW_CONTROL_ENABLE_PROVIDER, (uint8_t)(i + 1), 0, 0);
        barrier(2u * r);
    }
    if (i == 0) check_and_reset(ROUNDS + 1u);
    return NULL;
}

static unsigned race_pass(int disable_first)
{
    evt_etw_session_config c;
    for (int i = 0; i < 2; i++) {
        evt_etw_test_config(&c, EVT_ETW_SLOTS_PER_THREAD, BUF_SIZE, 1u, 0u, sink);
        assert_int_equal(evt_etw_session_start(&g_s[i], &c, g_mem[i], sizeof g_mem[i]), EVT_ETW_SUCCESS);
    }
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    g_disable_first = disable_first;
    g_bad = 0;
    atomic_store(&g_arrived, 0u);
    pthread_t t[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, racer, (void *)(intptr_t)i), 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    print_message("%s: %u of %u rounds broke the lists\n", disable_first ? "disable vs enable" : "enable vs enable",
                  g_bad, ROUNDS);
    for (int i = 0; i < 2; i++) (void)evt_etw_session_stop(&g_s[i]);
    return g_bad;
}

static void race(int disable_first)
{
    for (int pass = 0; pass < PASSES; pass++) assert_int_equal(race_pass(disable_first), 0);
}

static void test_enable_races_enable(void **st)
{
    (void)st;
    race(0);
}

static void test_disable_races_enable(void **st)
{
    (void)st;
    race(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enable_races_enable),
        cmocka_unit_test(test_disable_races_enable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

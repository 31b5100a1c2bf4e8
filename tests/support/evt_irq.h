/* Signal "interrupts" for recorder stress tests: a raw sigaction handler (SIGUSR1, unknown to the
 * port: it may land anywhere, even inside a recorder's critical section) and a handler installed
 * with evt_posix_isr_install (SIGUSR2, held off while its thread is in a section, as a masked
 * interrupt), sent by an interrupter thread with pthread_kill to random target threads after
 * random spins, until every target has finished recording. Targets stay alive (still taking
 * interrupts) until the interrupter stops, so pthread_kill never names an exited thread. */
#ifndef EVT_IRQ_H
#define EVT_IRQ_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

typedef struct evt_irq {
    pthread_t thread;         /* the interrupter */
    pthread_t *targets;       /* threads it interrupts */
    int ntargets;
    atomic_int targets_done;  /* targets that finished recording */
    atomic_int stopped;       /* no more signals will be sent */
    atomic_ulong sent;        /* signals sent */
} evt_irq;

/* Install raw (SIGUSR1, plain sigaction) and port (SIGUSR2, evt_posix_isr_install). 0 or -1. */
int evt_irq_install(void (*raw)(int), void (*port)(int));
/* Ignore both signals again (after the targets are joined). */
void evt_irq_uninstall(void);
/* Reset the counters: before the targets start. */
void evt_irq_init(evt_irq *q);
/* Start the interrupter over targets[0..n) (the array must outlive evt_irq_join). 0 or -1. */
int evt_irq_start(evt_irq *q, pthread_t *targets, int n);
/* Called by a target when it has finished recording: returns once the interrupter stopped. */
void evt_irq_target_done(evt_irq *q);
/* Wait for the interrupter (after which no signal is in flight from it). */
void evt_irq_join(evt_irq *q);
/* CLOCK_MONOTONIC in ns: the stress loops' run-time bound. */
uint64_t evt_irq_now_ns(void);
/* A stress target's loop bound, tested between batches of records (t0: evt_irq_now_ns() when the
 * target started, taken: interrupts taken so far by every target): 1 for run_ns from t0, or while
 * fewer than `want` interrupts were taken for up to 3 run_ns, or, on a machine loaded
 * enough that the interrupter has not yet run (none taken), for up to EVT_IRQ_NONE_MAX_NS more: the
 * test's "interrupts were taken" check then fails only if none ever arrives, not because the
 * scheduler was late (under TSan on a busy 2-core machine, 0 were taken in 3 x 0.3 s in 1 of ~300
 * runs of test_etw_stress_mt). */
#define EVT_IRQ_NONE_MAX_NS 20000000000ull
int evt_irq_keep_recording(uint64_t t0, uint64_t run_ns, unsigned long taken, unsigned long want);

#endif

/* Signal "interrupts" for recorder stress tests (see evt_irq.h). */
#include "evt_irq.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include "evtrace/port.h"

int evt_irq_install(void (*raw)(int), void (*port)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = raw;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0) return -1;
    return evt_posix_isr_install(SIGUSR2, port);
}

void evt_irq_uninstall(void)
{
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
}

static void *interrupter(void *arg)
{
    evt_irq *q = arg;
    uint32_t rng = 0x12345u ^ (uint32_t)time(NULL);
    while (atomic_load(&q->targets_done) < q->ntargets) {
        rng = rng * 1103515245u + 12345u;
        int sig = (rng >> 16) & 1u ? SIGUSR1 : SIGUSR2;
        pthread_kill(q->targets[(rng >> 8) % (uint32_t)q->ntargets], sig);
        atomic_fetch_add_explicit(&q->sent, 1u, memory_order_relaxed);
        for (volatile uint32_t spin = (rng >> 20) % 20000u; spin; spin--) {
        }
    }
    atomic_store(&q->stopped, 1);
    return NULL;
}

void evt_irq_init(evt_irq *q)
{
    atomic_store(&q->targets_done, 0);
    atomic_store(&q->stopped, 0);
    atomic_store(&q->sent, 0);
}

int evt_irq_start(evt_irq *q, pthread_t *targets, int n)
{
    q->targets = targets;
    q->ntargets = n;
    return pthread_create(&q->thread, NULL, interrupter, q) == 0 ? 0 : -1;
}

void evt_irq_target_done(evt_irq *q)
{
    atomic_fetch_add(&q->targets_done, 1);
    while (!atomic_load(&q->stopped)) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
}

void evt_irq_join(evt_irq *q) { pthread_join(q->thread, NULL); }

uint64_t evt_irq_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int evt_irq_keep_recording(uint64_t t0, uint64_t run_ns, unsigned long taken, unsigned long want)
{
    uint64_t d = evt_irq_now_ns() - t0;
    if (d < run_ns) return 1;
    if (taken < want && d < 3u * run_ns) return 1;
    return taken == 0u && d < 3u * run_ns + EVT_IRQ_NONE_MAX_NS;
}

/* The demo's ThreadX-like kernel on POSIX threads (see demo_kernel.h): each service records what
 * ThreadX records (ids, info fields and object registration of shared/formats/threadx.md). */
#include "demo_kernel.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "evtrace/port.h"
#include "formats/threadx/txtb_defs.h"

/* ThreadX thread states (info2 of THREAD_RESUME/SUSPEND). */
#define ST_READY     0u
#define ST_SUSPENDED 3u
#define ST_SLEEP     4u
#define ST_QUEUE     5u
#define ST_SEMAPHORE 6u

static _Thread_local demo_thread *demo_current; /* the demo thread this pthread runs, or NULL */
static _Atomic uint32_t demo_last_thread;        /* last thread seen running (interrupted thread) */
static struct timespec demo_t0;                  /* time origin of the microsecond clock */

/* Stack sample ("stk" info fields): the address of a local of the recording function. */
#define STK() evt_tx_addr(__builtin_frame_address(0))

/* Context callback: thread (address + current priority word), ISR (interrupted thread as the
 * priority word), or initialisation (main thread before/after the demo threads). */
static void demo_context(evt_tx_context *out)
{
    if (evt_posix_in_isr) {
        out->context = TXTB_CTX_ISR;
        out->priority_word = atomic_load_explicit(&demo_last_thread, memory_order_relaxed);
    } else if (demo_current) {
        out->context = evt_tx_addr(demo_current);
        /* preemption threshold = priority (ThreadX's default when none is set) */
        out->priority_word = TXTB_PRIO_CURRENT_BIT | demo_current->priority << 16 | demo_current->priority;
        atomic_store_explicit(&demo_last_thread, out->context, memory_order_relaxed);
    } else {
        out->context = TXTB_CTX_INIT;
        out->priority_word = 0;
    }
}

/* Microseconds since demo_trace_start: one tick = 1 us, so viewers show real time. */
static uint32_t demo_time_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t ns = (int64_t)(ts.tv_sec - demo_t0.tv_sec) * 1000000000 + (ts.tv_nsec - demo_t0.tv_nsec);
    return (uint32_t)(ns / 1000);
}

int demo_trace_start(void *buf, uint32_t size, uint32_t registry_entries)
{
    clock_gettime(CLOCK_MONOTONIC, &demo_t0);
    evt_tx_options opt = {0};
    opt.big_endian = 0;
    opt.time_source = demo_time_us;
    opt.context = demo_context;
    if (evt_tx_trace_enable_ex(buf, size, registry_entries, &opt) != EVT_TX_SUCCESS) return -1;
    evt_tx_trace_clock_register(1000000u); /* one tick = 1 us: viewers show real time unasked */
    return 0;
}

static void ev(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    evt_tx_trace_kernel_event(id, i1, i2, i3, i4);
}

/* ---- threads ---------------------------------------------------------------------------------- */

static void *demo_thread_main(void *arg)
{
    demo_thread *t = arg;
    demo_current = t;
    t->entry(t->arg);
    demo_current = NULL;
    return NULL;
}

void demo_thread_create(demo_thread *t, const char *name, void (*entry)(uint32_t), uint32_t arg,
                        uint32_t priority, void *stack, uint32_t stack_size)
{
    t->name = name;
    t->priority = priority;
    t->entry = entry;
    t->arg = arg;
    t->stack = stack;
    t->stack_size = stack_size;
    evt_tx_trace_thread_register(t, name, evt_tx_addr(stack), stack_size, priority);
    ev(TXTB_EVENT_THREAD_CREATE, evt_tx_addr(t), priority, evt_tx_addr(stack), stack_size);
    /* TX_AUTO_START: the creator resumes the new thread (it was "suspended" while created). */
    ev(TXTB_EVENT_THREAD_RESUME, evt_tx_addr(t), ST_SUSPENDED, STK(), 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int rc = pthread_attr_setstack(&attr, stack, stack_size);
    if (rc == 0) rc = pthread_create(&t->pt, &attr, demo_thread_main, t);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        fprintf(stderr, "demo: cannot start thread %s (error %d)\n", name, rc);
        exit(1);
    }
}

void demo_thread_join(demo_thread *t) { pthread_join(t->pt, NULL); }

void demo_thread_sleep_ms(uint32_t ms)
{
    demo_thread *self = demo_current;
    ev(TXTB_EVENT_THREAD_SLEEP, ms, ST_READY, STK(), 0);
    ev(TXTB_EVENT_THREAD_SUSPEND, evt_tx_addr(self), ST_SLEEP, STK(), 0);
    struct timespec d = {0, (long)ms * 1000000L};
    nanosleep(&d, NULL);
    /* In ThreadX the timer wakes the sleeper; here the sleeper records its own resume. */
    ev(TXTB_EVENT_THREAD_RESUME, evt_tx_addr(self), ST_SLEEP, STK(), 0);
}

/* ---- queue ------------------------------------------------------------------------------------ */

void demo_queue_create(demo_queue *q, const char *name)
{
    q->name = name;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->changed, NULL);
    q->head = q->count = 0;
    q->receiver_waiting = q->sender_waiting = NULL;
    /* registry P1 = queue size in bytes, P2 = message size in words */
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, q, name, DEMO_QUEUE_CAP * 4u, 1u);
    ev(TXTB_EVENT_QUEUE_CREATE, evt_tx_addr(q), 1u, evt_tx_addr(q->msgs), DEMO_QUEUE_CAP * 4u);
}

int demo_queue_send(demo_queue *q, uint32_t msg, uint32_t wait)
{
    pthread_mutex_lock(&q->lock);
    ev(TXTB_EVENT_QUEUE_SEND, evt_tx_addr(q), evt_tx_addr(&msg), wait, q->count);
    while (q->count == DEMO_QUEUE_CAP) {
        if (wait == DEMO_NO_WAIT || !demo_current) {
            pthread_mutex_unlock(&q->lock);
            return -1;
        }
        ev(TXTB_EVENT_THREAD_SUSPEND, evt_tx_addr(demo_current), ST_QUEUE, STK(), 0);
        q->sender_waiting = demo_current;
        while (q->sender_waiting == demo_current) pthread_cond_wait(&q->changed, &q->lock);
    }
    q->msgs[(q->head + q->count) % DEMO_QUEUE_CAP] = msg;
    q->count++;
    if (q->receiver_waiting) {
        ev(TXTB_EVENT_THREAD_RESUME, evt_tx_addr(q->receiver_waiting), ST_QUEUE, STK(), 0);
        q->receiver_waiting = NULL;
        pthread_cond_broadcast(&q->changed);
    }
    pthread_mutex_unlock(&q->lock);
    return 0;
}

uint32_t demo_queue_receive(demo_queue *q)
{
    uint32_t msg;
    pthread_mutex_lock(&q->lock);
    ev(TXTB_EVENT_QUEUE_RECEIVE, evt_tx_addr(q), evt_tx_addr(&msg), DEMO_WAIT_FOREVER, q->count);
    while (q->count == 0) {
        ev(TXTB_EVENT_THREAD_SUSPEND, evt_tx_addr(demo_current), ST_QUEUE, STK(), 0);
        q->receiver_waiting = demo_current;
        while (q->receiver_waiting == demo_current) pthread_cond_wait(&q->changed, &q->lock);
    }
    msg = q->msgs[q->head];
    q->head = (q->head + 1) % DEMO_QUEUE_CAP;
    q->count--;
    if (q->sender_waiting) {
        ev(TXTB_EVENT_THREAD_RESUME, evt_tx_addr(q->sender_waiting), ST_QUEUE, STK(), 0);
        q->sender_waiting = NULL;
        pthread_cond_broadcast(&q->changed);
    }
    pthread_mutex_unlock(&q->lock);
    return msg;
}

/* ---- semaphore -------------------------------------------------------------------------------- */

void demo_semaphore_create(demo_semaphore *s, const char *name, uint32_t initial)
{
    s->name = name;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->posted, NULL);
    s->count = initial;
    s->waiting = NULL;
    evt_tx_trace_object_register(TXTB_OBJ_SEMAPHORE, s, name, initial, 0u);
    ev(TXTB_EVENT_SEMAPHORE_CREATE, evt_tx_addr(s), initial, STK(), 0);
}

void demo_semaphore_put(demo_semaphore *s)
{
    pthread_mutex_lock(&s->lock);
    ev(TXTB_EVENT_SEMAPHORE_PUT, evt_tx_addr(s), s->count, s->waiting ? 1u : 0u, STK());
    if (s->waiting) {
        /* ThreadX hands the count straight to the suspended getter */
        ev(TXTB_EVENT_THREAD_RESUME, evt_tx_addr(s->waiting), ST_SEMAPHORE, STK(), 0);
        s->waiting = NULL;
        pthread_cond_broadcast(&s->posted);
    } else {
        s->count++;
    }
    pthread_mutex_unlock(&s->lock);
}

void demo_semaphore_get(demo_semaphore *s)
{
    pthread_mutex_lock(&s->lock);
    ev(TXTB_EVENT_SEMAPHORE_GET, evt_tx_addr(s), DEMO_WAIT_FOREVER, s->count, STK());
    if (s->count > 0) {
        s->count--;
    } else {
        ev(TXTB_EVENT_THREAD_SUSPEND, evt_tx_addr(demo_current), ST_SEMAPHORE, STK(), 0);
        s->waiting = demo_current;
        while (s->waiting == demo_current) pthread_cond_wait(&s->posted, &s->lock);
    }
    pthread_mutex_unlock(&s->lock);
}

/* ---- timers ----------------------------------------------------------------------------------- */

#define DEMO_MAX_TIMERS 4u
static struct {
    demo_thread *thread;                 /* the System Timer Thread */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    demo_timer *timers[DEMO_MAX_TIMERS];
    unsigned ntimers;
    int suspended;                       /* the timer thread waits for an expiry */
    int pending;                         /* an expiry is waiting for the timer thread */
    int stop;
} demo_tm = {NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, 0, 0, 0};

static void demo_timer_thread_entry(uint32_t arg)
{
    (void)arg;
    pthread_mutex_lock(&demo_tm.lock);
    for (;;) {
        while (!demo_tm.pending && !demo_tm.stop) {
            ev(TXTB_EVENT_THREAD_SUSPEND, evt_tx_addr(demo_current), ST_SUSPENDED, STK(), 0);
            demo_tm.suspended = 1;
            while (demo_tm.suspended) pthread_cond_wait(&demo_tm.wake, &demo_tm.lock);
        }
        if (demo_tm.stop && !demo_tm.pending) break;
        demo_tm.pending = 0;
        for (unsigned i = 0; i < demo_tm.ntimers; i++) {
            demo_timer *tm = demo_tm.timers[i];
            while (tm->expired) {
                tm->expired--;
                pthread_mutex_unlock(&demo_tm.lock);
                tm->expire(tm->arg);
                pthread_mutex_lock(&demo_tm.lock);
            }
        }
    }
    pthread_mutex_unlock(&demo_tm.lock);
}

void demo_timer_system_start(demo_thread *t, void *stack, uint32_t stack_size)
{
    demo_tm.thread = t;
    demo_thread_create(t, "System Timer Thread", demo_timer_thread_entry, 0, 0, stack, stack_size);
}

void demo_timer_create(demo_timer *tm, const char *name, uint32_t initial_ticks,
                       uint32_t reschedule_ticks, void (*expire)(uint32_t), uint32_t arg)
{
    tm->name = name;
    tm->initial_ticks = initial_ticks;
    tm->reschedule_ticks = reschedule_ticks;
    tm->remaining = initial_ticks;
    tm->expired = 0;
    tm->expire = expire;
    tm->arg = arg;
    evt_tx_trace_object_register(TXTB_OBJ_TIMER, tm, name, initial_ticks, reschedule_ticks);
    ev(TXTB_EVENT_TIMER_CREATE, evt_tx_addr(tm), initial_ticks, reschedule_ticks, 1u /* auto-activate */);
    pthread_mutex_lock(&demo_tm.lock);
    if (demo_tm.ntimers < DEMO_MAX_TIMERS) demo_tm.timers[demo_tm.ntimers++] = tm;
    pthread_mutex_unlock(&demo_tm.lock);
}

static void demo_timer_wake_locked(void)
{
    if (demo_tm.suspended) {
        ev(TXTB_EVENT_THREAD_RESUME, evt_tx_addr(demo_tm.thread), ST_SUSPENDED, STK(), 0);
        demo_tm.suspended = 0;
        pthread_cond_broadcast(&demo_tm.wake);
    }
}

void demo_timer_isr_tick(void)
{
    pthread_mutex_lock(&demo_tm.lock);
    int expired = 0;
    for (unsigned i = 0; i < demo_tm.ntimers; i++) {
        demo_timer *tm = demo_tm.timers[i];
        if (--tm->remaining == 0) {
            tm->remaining = tm->reschedule_ticks;
            tm->expired++;
            expired = 1;
        }
    }
    if (expired) {
        demo_tm.pending = 1;
        demo_timer_wake_locked();
    }
    pthread_mutex_unlock(&demo_tm.lock);
}

void demo_timer_system_stop(void)
{
    pthread_mutex_lock(&demo_tm.lock);
    demo_tm.stop = 1;
    demo_timer_wake_locked();
    pthread_mutex_unlock(&demo_tm.lock);
    demo_thread_join(demo_tm.thread);
}

/* ---- interrupts ------------------------------------------------------------------------------- */

void demo_isr_run(uint32_t isr_id, void (*fn)(uint32_t), uint32_t arg)
{
    evt_posix_in_isr = 1;
    evt_tx_trace_isr_enter_insert(isr_id);
    fn(arg);
    evt_tx_trace_isr_exit_insert(isr_id);
    evt_posix_in_isr = 0;
}

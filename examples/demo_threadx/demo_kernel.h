/* A tiny ThreadX-like "kernel" on POSIX threads for the demo: threads with priorities, a message
 * queue, a counting semaphore and a periodic timer. Every service records the event a ThreadX
 * kernel records (ids and info fields of shared/formats/threadx.md §3) through the TXTB recorder,
 * registers its objects with their ThreadX type and parameters, and brackets blocking with
 * THREAD_SUSPEND (in the blocking thread) and THREAD_RESUME (in the waker), so each thread's
 * running slices are visible. The "ISR" is a thread that sets the POSIX port's in-ISR flag. */
#ifndef DEMO_KERNEL_H
#define DEMO_KERNEL_H

#include <pthread.h>
#include <stdint.h>

#include "evtrace/txtb.h"

#define DEMO_WAIT_FOREVER 0xFFFFFFFFu
#define DEMO_NO_WAIT      0u

/* A thread control block (the object whose address the trace records as the context). */
typedef struct demo_thread {
    const char *name;          /* registry name */
    uint32_t priority;         /* ThreadX priority (0 = highest) */
    void (*entry)(uint32_t);   /* thread body */
    uint32_t arg;              /* its argument */
    uint8_t *stack;            /* stack memory given to the pthread */
    uint32_t stack_size;       /* its size in bytes */
    pthread_t pt;              /* the POSIX thread running it */
} demo_thread;

/* A queue of one-word messages (ThreadX message size 1 ULONG). */
#define DEMO_QUEUE_CAP 8u
typedef struct demo_queue {
    const char *name;
    pthread_mutex_t lock;
    pthread_cond_t changed;            /* signalled on every send and receive */
    uint32_t msgs[DEMO_QUEUE_CAP];     /* ring of messages */
    uint32_t head, count;              /* oldest message, messages queued */
    demo_thread *receiver_waiting;     /* a receiver suspended on "empty" */
    demo_thread *sender_waiting;       /* a sender suspended on "full" */
} demo_queue;

typedef struct demo_semaphore {
    const char *name;
    pthread_mutex_t lock;
    pthread_cond_t posted;
    uint32_t count;                    /* current count */
    demo_thread *waiting;              /* a getter suspended on count 0 */
} demo_semaphore;

/* A periodic application timer: the tick ISR counts it down, its expiration function runs in the
 * "System Timer Thread" (priority 0), as in ThreadX. */
typedef struct demo_timer {
    const char *name;
    uint32_t initial_ticks, reschedule_ticks;
    uint32_t remaining;                /* ticks until the next expiry */
    uint32_t expired;                  /* expiries not yet handled by the timer thread */
    void (*expire)(uint32_t);          /* expiration function */
    uint32_t arg;
} demo_timer;

/* Start tracing into buf (microsecond time source, demo context callback). 0 on success. */
int demo_trace_start(void *buf, uint32_t size, uint32_t registry_entries);

/* Create a thread (THREAD_CREATE + registry) and start it at once. */
void demo_thread_create(demo_thread *t, const char *name, void (*entry)(uint32_t), uint32_t arg,
                        uint32_t priority, void *stack, uint32_t stack_size);
void demo_thread_join(demo_thread *t);
/* THREAD_SLEEP for ms milliseconds: records SLEEP + SUSPEND, then RESUME when it wakes. */
void demo_thread_sleep_ms(uint32_t ms);

void demo_queue_create(demo_queue *q, const char *name);
/* QUEUE_SEND; wait = DEMO_WAIT_FOREVER or DEMO_NO_WAIT (then returns -1 when full). */
int demo_queue_send(demo_queue *q, uint32_t msg, uint32_t wait);
/* QUEUE_RECEIVE, waiting forever. */
uint32_t demo_queue_receive(demo_queue *q);

void demo_semaphore_create(demo_semaphore *s, const char *name, uint32_t initial);
void demo_semaphore_put(demo_semaphore *s);
void demo_semaphore_get(demo_semaphore *s);

/* Create the "System Timer Thread" (priority 0); call before creating timers. */
void demo_timer_system_start(demo_thread *t, void *stack, uint32_t stack_size);
/* Create and activate a periodic timer (TIMER_CREATE + registry; at most 4). */
void demo_timer_create(demo_timer *tm, const char *name, uint32_t initial_ticks,
                       uint32_t reschedule_ticks, void (*expire)(uint32_t), uint32_t arg);
/* One timer tick, called from the tick interrupt: counts the timers down and resumes the timer
 * thread when one expires. */
void demo_timer_isr_tick(void);
/* Stop the timer thread (after the last tick) and join it. */
void demo_timer_system_stop(void);

/* Simulated interrupt: brackets fn with ISR_ENTER/ISR_EXIT and the port's in-ISR flag. */
void demo_isr_run(uint32_t isr_id, void (*fn)(uint32_t), uint32_t arg);

#endif

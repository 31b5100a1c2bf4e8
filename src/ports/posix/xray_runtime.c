/* XRay recorder runtime for POSIX (recorder library evtrace_rec): the pool in heap memory, one
 * writer per thread in TLS, the port's timestamp counter (the TSC on x86; the header's cycle
 * frequency from sysfs or calibrated against CLOCK_MONOTONIC), the XRay handlers that replace
 * compiler-rt's FDR logging (entry/exit/tail, arg1, custom, typed), the explicit enter/exit API,
 * and the file writer. compiler-rt's XRay functions are weak references, so this links into
 * programs without the XRay runtime too (handlers then skipped). Contract: include/evtrace/xray.h.
 *
 * Every entry point: gate (one relaxed load; stopped = return, no clock read), the thread's
 * writer, its nesting guard (busy = a signal handler interrupted a record of this thread: drop
 * and count; the user-event carrier, xray_user.c, asks evt_xray_in_record_ first and stashes a
 * handler's user record instead, user_nest_enc.c, written at the interrupted record's exit,
 * xr_leave), the gate again (stop's handshake, below), then the clock and the record. No lock:
 * buffers are per thread.
 *
 * Stop and records in flight: a thread's writer is registered (g_threads, under g_reg_mu) on its
 * first event and unlinked at its exit. A record sets its guard, then loads the gate again; stop
 * closes the gate, runs membarrier (a full barrier on every thread: either the record's guard
 * store is visible to stop, or its second gate load sees the gate closed and it touches nothing),
 * then waits for every registered guard to clear and releases each writer's buffer (its records
 * count as written). So once stop returns no record is being written: the file written after it
 * holds every record counted, the stats are final (written + dropped == issued), and a restart
 * may free the old pool.
 *
 * A thread whose exit hook has run never registers again: a record it makes later (a
 * thread-specific destructor that runs after the runtime's, a signal handler that lands after
 * the destructors) may come after the last destructor round, where nothing would unlink it, and
 * the registry would keep the address of thread-local memory the next thread on the same stack
 * reuses (its own registration then made the list a cycle: the next stop looped forever). Such a
 * record is counted process-wide while it runs (g_unlinked: stop waits for it as for a guard) and
 * hands its buffer back at its end (enter_gone, leave_gone). */
#define _GNU_SOURCE
#include "evtrace/xray.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#include <sys/rseq.h>
#define XR_HAVE_RSEQ 1
#endif
#include "formats/xray/xray_defs.h"
#include "posix_masked_lock.h"

/* compiler-rt XRay runtime (xray_interface.h is C++; enums are int-sized). Weak: may be absent. */
extern int __xray_set_handler(void (*)(int32_t, int)) __attribute__((weak));
extern int __xray_remove_handler(void) __attribute__((weak));
extern int __xray_set_handler_arg1(void (*)(int32_t, int, uint64_t)) __attribute__((weak));
extern int __xray_remove_handler_arg1(void) __attribute__((weak));
extern int __xray_set_customevent_handler(void (*)(void *, size_t)) __attribute__((weak));
extern int __xray_remove_customevent_handler(void) __attribute__((weak));
extern int __xray_set_typedevent_handler(void (*)(uint16_t, const void *, size_t)) __attribute__((weak));
extern int __xray_remove_typedevent_handler(void) __attribute__((weak));
extern int __xray_patch(void) __attribute__((weak));
/* The -finstrument-functions front end (xray_cyg.c), present only when linked in. */
extern uint32_t evt_xray_cyg_count(void) __attribute__((weak));
#pragma weak evt_xray_write_map

static evt_xray_pool g_pool;
static uint8_t *g_mem;
static evt_xray_buf *g_bufs;
evt_gate evt_xray_gate;          /* bits 1 while recording (read on every event) */
static int g_started;
static int g_handlers;           /* XRay handlers installed */
static uint64_t g_hz;
static int g_const_tsc, g_nonstop_tsc;
static pthread_key_t g_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
/* A thread's writer and its link in the registry of live writers (stop waits for their records). */
typedef struct xr_thread {
    evt_xray_writer w;
    /* The thread's rseq cpu_id word, set with tid when the thread has an rseq area (else NULL,
     * and cleared with tid): evt_xray_fn_on's fast path reads the CPU through it. */
    const volatile uint32_t *cpu_at;
    struct xr_thread *prev, *next; /* g_threads, under g_reg_mu */
    int linked;
    unsigned gone;     /* its exit hook ran: never registered again */
    unsigned unlinked; /* this thread's records counted in g_unlinked (this thread only) */
} xr_thread;
static __thread xr_thread t_x;
static xr_thread *g_threads;
static pthread_mutex_t g_reg_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic unsigned g_unlinked; /* records of threads past their exit hook, in progress */

/* The port's counter (rdtsc on x86, CLOCK_MONOTONIC ns elsewhere): what the header's cycle
 * frequency describes. A writer's records are in its own order; a value read out of turn is
 * re-based by a TSCWrap record (the FDR format's own rule), never clamped across threads. */
static inline uint64_t now_tsc(void) { return evt_port_timestamp(); }

/* The calling thread's rseq cpu_id word (struct rseq.cpu_id in the area glibc registers for every
 * thread), or NULL when the thread has none. */
static const volatile uint32_t *rseq_cpu_at(void)
{
#ifdef XR_HAVE_RSEQ
    if (__rseq_size >= 8) {
        const char *tp;
        __asm__("mov %%fs:0, %0" : "=r"(tp));
        return (const volatile uint32_t *)(tp + __rseq_offset + 4);
    }
#endif
    return NULL;
}

/* The CPU from the rseq word's value c (a TLS load, ~0.3 ns here) when the kernel keeps it,
 * else sched_getcpu() (~4 ns, vDSO). */
static inline uint32_t cpu_from(uint32_t c)
{
    if (__builtin_expect(c < 0xFFFFFFF0u, 1)) return c;
    int k = sched_getcpu();
    return k < 0 ? 0 : (uint32_t)k;
}

/* Current CPU. */
static inline uint32_t now_cpu(void)
{
    const volatile uint32_t *at = rseq_cpu_at();
    return cpu_from(at ? *at : 0xFFFFFFFFu);
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void walltime(int64_t *sec, int32_t *usec)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* as compiler-rt 14 */
    *sec = ts.tv_sec;
    *usec = (int32_t)(ts.tv_nsec / 1000);
}

/* TSC frequency: sysfs when the kernel exposes it, else measured over 20 ms. */
static uint64_t calibrate_hz(void)
{
#if defined(__x86_64__) || defined(__i386__)
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/tsc_freq_khz", "r");
    if (f) {
        unsigned long long khz = 0;
        int ok = fscanf(f, "%llu", &khz) == 1;
        fclose(f);
        if (ok && khz) return khz * 1000u;
    }
    uint64_t t0 = mono_ns(), c0 = now_tsc();
    struct timespec d = {0, 20000000};
    nanosleep(&d, NULL);
    uint64_t t1 = mono_ns(), c1 = now_tsc();
    if (t1 <= t0) return 0;
    return (uint64_t)((double)(c1 - c0) * 1e9 / (double)(t1 - t0));
#else
    return 1000000000u;
#endif
}

static void cpu_flags(void)
{
#if defined(__x86_64__) || defined(__i386__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        g_const_tsc = strstr(line, " constant_tsc") != NULL;
        g_nonstop_tsc = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    if (f) fclose(f);
#else
    g_const_tsc = g_nonstop_tsc = 1; /* CLOCK_MONOTONIC */
#endif
}

/* The registry's lock is taken with the thread's signals blocked (posix_masked_lock.h): a
 * handler that records on a thread holding it never waits for it. */
static void reg_lock(sigset_t *old) { evt_posix_masked_lock(&g_reg_mu, old); }
static void reg_unlock(const sigset_t *old) { evt_posix_masked_unlock(&g_reg_mu, old); }

/* Thread exit: hand the buffer back as full so the pool can reuse it, leave the registry for good
 * (a record made later on this thread: enter_gone). */
static void thread_gone(void *arg)
{
    xr_thread *x = arg;
    sigset_t old;
    reg_lock(&old);
    evt_xray_writer_release(&x->w);
    if (x->linked) {
        if (x->prev) x->prev->next = x->next;
        else g_threads = x->next;
        if (x->next) x->next->prev = x->prev;
        x->prev = x->next = NULL;
        x->linked = 0;
    }
    x->gone = 1u;
    x->cpu_at = NULL; /* evt_xray_fn_on takes fn_on_general, which tests `gone` */
    reg_unlock(&old);
}

/* fork child: only this thread lives on (the others' writers may have been mid-record). */
static void after_fork_child(void)
{
    pthread_mutex_init(&g_reg_mu, NULL);
    g_threads = t_x.linked ? &t_x : NULL;
    t_x.prev = t_x.next = NULL;
    atomic_store_explicit(&g_unlinked, t_x.unlinked, memory_order_relaxed);
}

static void make_key(void)
{
    (void)pthread_key_create(&g_key, thread_gone);
    (void)pthread_atfork(NULL, NULL, after_fork_child);
}

/* First event of a thread (or after a restart): thread id, the registry and the exit hook. */
static __attribute__((noinline)) evt_xray_writer *writer_init(void)
{
    xr_thread *x = &t_x;
    sigset_t old;
    reg_lock(&old);
    /* With signals blocked: a handler recording on a thread inside the process's first
     * pthread_once would wait for that once to finish, i.e. for itself. */
    pthread_once(&g_key_once, make_key);
    if (x->w.tid == 0) {
        x->w.tid = (uint32_t)syscall(SYS_gettid);
        x->cpu_at = rseq_cpu_at();
        if (!x->linked) {
            x->prev = NULL;
            x->next = g_threads;
            if (g_threads) g_threads->prev = x;
            g_threads = x;
            x->linked = 1;
        }
        pthread_setspecific(g_key, x);
    }
    reg_unlock(&old);
    return &x->w;
}

static inline evt_xray_writer *writer(void)
{
    evt_xray_writer *w = &t_x.w;
    return __builtin_expect(w->tid != 0, 1) ? w : writer_init();
}

/* The writer's nesting guard as atomics (stop reads it from another thread): the same plain byte
 * stores as evt_nest_enter/exit on x86-64; the exit is a release (stop's wait then sees the
 * record's stores). */
static inline int xr_nest_enter(evt_xray_writer *w)
{
    if (__atomic_load_n(&w->nest.busy, __ATOMIC_RELAXED)) return 0;
    __atomic_store_n(&w->nest.busy, 1u, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return 1;
}
static inline void xr_nest_exit(evt_xray_writer *w)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&w->nest.busy, 0u, __ATOMIC_RELEASE);
}

/* Leave a record: its guard, then what a signal handler that landed inside it left for its end
 * (a stashed user line: evt_posix_after_record). */
static inline void xr_leave(evt_xray_writer *w)
{
    xr_nest_exit(w);
    evt_posix_after_record();
}

/* ---- event entry points ----------------------------------------------------------------------- */

int evt_xray_in_record_(void) { return t_x.w.tid != 0 && __atomic_load_n(&t_x.w.nest.busy, __ATOMIC_RELAXED) != 0; }

static inline int xr_on(void) { return evt_gate_bits(&evt_xray_gate) != 0; }

static void leave_gone(evt_xray_writer *w);
/* The end of a record begun by enter() (a thread past its exit hook: leave_gone). */
static inline void leave(evt_xray_writer *w)
{
    if (__builtin_expect(t_x.gone != 0u, 0)) leave_gone(w);
    else xr_leave(w);
}

/* Test hook: called inside the nesting guard, before the clock read (a test raises a signal
 * there to land a handler in the middle of a record). NULL in production. */
void (*evt_xray_test_in_record_hook)(void);

/* A record of a thread past its exit hook: counted in g_unlinked before the gate is loaded again
 * (seq_cst: stop's membarrier pairs with it), then as enter(). */
static __attribute__((noinline)) evt_xray_writer *enter_gone(void)
{
    xr_thread *x = &t_x;
    atomic_fetch_add_explicit(&g_unlinked, 1u, memory_order_seq_cst);
    x->unlinked++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    evt_xray_writer *w = &x->w;
    if (!xr_nest_enter(w)) evt_xray_drop(&g_pool); /* a record of this thread is in progress */
    else if (__atomic_load_n(&evt_xray_gate.bits, __ATOMIC_ACQUIRE)) return w;
    else xr_nest_exit(w); /* stopped: not issued */
    x->unlinked--;
    atomic_fetch_sub_explicit(&g_unlinked, 1u, memory_order_release);
    return NULL;
}

/* Its end: nothing releases this thread's buffer later, so it goes back now (its records count as
 * written), inside the guard; then the guard and the count. */
static __attribute__((noinline)) void leave_gone(evt_xray_writer *w)
{
    xr_thread *x = &t_x;
    evt_xray_writer_release(w);
    xr_nest_exit(w);
    x->unlinked--;
    atomic_fetch_sub_explicit(&g_unlinked, 1u, memory_order_release);
    evt_posix_after_record();
}

/* Enter the thread's nesting guard, or count the record dropped (a record of this thread is being
 * written: we are a signal handler that interrupted it). */
static inline evt_xray_writer *enter(void)
{
    if (__builtin_expect(t_x.gone != 0u, 0)) return enter_gone();
    evt_xray_writer *w = writer();
    if (__builtin_expect(!xr_nest_enter(w), 0)) {
        evt_xray_drop(&g_pool);
        return NULL;
    }
    /* Stop's handshake: the gate again, now that the guard is set (acquire: a restart's pool) */
    if (__builtin_expect(!__atomic_load_n(&evt_xray_gate.bits, __ATOMIC_ACQUIRE), 0)) {
        xr_nest_exit(w); /* stopped meanwhile: not issued */
        return NULL;
    }
    if (__builtin_expect(evt_xray_test_in_record_hook != NULL, 0)) evt_xray_test_in_record_hook();
    return w;
}

/* evt_xray_fn_on for whatever its fast path leaves (first record of a thread, no rseq area, an
 * unknown kind, the test hook set): the general entry. */
static __attribute__((noinline)) void fn_on_general(unsigned kind, uint32_t fid)
{
    evt_xray_writer *w = enter();
    if (!w) return;
    (void)evt_xray_fn_fast(w, &g_pool, kind <= XRAY_FN_ENTER_ARG ? kind : XRAY_FN_ENTER, fid, now_tsc(), now_cpu());
    leave(w);
}

/* evt_xray_fn_on's record when it is not the inline case (new buffer, CPU changed, a long delta,
 * losses pending, the kernel not keeping the rseq word): guard held, clock read (rseq value c);
 * word as evt_xray_fn_word_ made it. */
static __attribute__((noinline)) void fn_on_rest(evt_xray_writer *w, uint32_t word, uint64_t tsc, uint32_t c)
{
    (void)evt_xray_fn_fast(w, &g_pool, (word >> 1) & 7u, word >> 4, tsc, cpu_from(c));
    xr_leave(w);
}

/* The writer's side of evt_xray_fn_fast's test (room, the same CPU, a delta that fits): stores the
 * record (first word `word`) and returns 1, else 0 with nothing written. */
static inline int fn_put(evt_xray_writer *w, uint32_t word, uint64_t tsc, uint32_t cpu)
{
    uint64_t delta = tsc - w->last_tsc;
    uint8_t *q = w->pos;
    if (__builtin_expect(!(q != 0 && w->end - q >= 8 && cpu == w->cpu && delta <= 0x7FFFFFFFu), 0)) return 0;
    evt_xray_fn_store_(w, q, word, delta, tsc);
    return 1;
}

/* The same steps as fn_on_general (enter, clock, record, leave), with every call out of its
 * usual path a tail call: it saves no registers (70 instructions per record on x86-64 against 89
 * through enter(); docs/recorder.md). */
void evt_xray_fn_on(unsigned kind, uint32_t fid)
{
    xr_thread *x = &t_x;
    const volatile uint32_t *cpu_at = x->cpu_at; /* NULL before the thread's first record */
    if (__builtin_expect(kind > XRAY_FN_ENTER_ARG || cpu_at == NULL || evt_xray_test_in_record_hook != NULL, 0)) {
        fn_on_general(kind, fid);
        return;
    }
    uint32_t word = evt_xray_fn_word_(kind, fid); /* made now: one register less past the clock read */
    evt_xray_writer *w = &x->w;
    if (__builtin_expect(!xr_nest_enter(w), 0)) { /* a record of this thread is in progress */
        evt_xray_drop(&g_pool);
        return;
    }
    if (__builtin_expect(!__atomic_load_n(&evt_xray_gate.bits, __ATOMIC_ACQUIRE), 0)) { /* as enter() */
        xr_nest_exit(w);
        return;
    }
    /* The pool's side of evt_xray_fn_fast's test, made before the clock is read while fewer values
     * are live (no register is saved; the asm keeps the compiler from sinking it past the read).
     * A loss counted meanwhile waits for the next record, as one counted just after the test. */
    int pool_ok = __builtin_expect(w->generation == g_pool.generation && evt_xray_loss_pending(&g_pool) == 0, 1);
    __asm__ __volatile__("" : "+r"(pool_ok));
    uint64_t tsc = now_tsc();
    uint32_t c = *cpu_at;
    if (__builtin_expect(!pool_ok || c >= 0xFFFFFFF0u || !fn_put(w, word, tsc, c), 0)) {
        fn_on_rest(w, word, tsc, c);
        return;
    }
    xr_leave(w);
}

static void h_arg0(int32_t fid, int type)
{
    if (__builtin_expect(!xr_on(), 0)) return;
    evt_xray_fn_on((unsigned)type, (uint32_t)fid);
}

static void h_arg1(int32_t fid, int type, uint64_t arg)
{
    (void)type;
    if (!xr_on()) return;
    evt_xray_writer *w = enter();
    if (!w) return;
    (void)evt_xray_rec_fn(w, &g_pool, XRAY_FN_ENTER_ARG, (uint32_t)fid, now_tsc(), now_cpu(), 1, &arg);
    leave(w);
}

static void h_event(int32_t type, const void *data, size_t size)
{
    if (!xr_on() || size == 0) return;
    evt_xray_writer *w = enter();
    if (!w) return;
    if (size > 0x7FFFFFFFu) { /* too big: dropped inside the guard, so stop's wait covers the count */
        evt_xray_drop(&g_pool);
    } else {
        (void)evt_xray_rec_event(w, &g_pool, type, data, (uint32_t)size, now_tsc(), now_cpu());
    }
    leave(w);
}

static void h_custom(void *data, size_t size) { h_event(-1, data, size); }
static void h_typed(uint16_t type, const void *data, size_t size) { h_event(type, data, size); }

/* The functions behind the inline-gated macros of the same names (xray.h). */
void (evt_xray_enter)(uint32_t fid) { evt_xray_fn_gated_(XRAY_FN_ENTER, fid); }
void (evt_xray_exit)(uint32_t fid) { evt_xray_fn_gated_(XRAY_FN_EXIT, fid); }
void (evt_xray_tail_exit)(uint32_t fid) { evt_xray_fn_gated_(XRAY_FN_TAIL_EXIT, fid); }
void evt_xray_enter_arg(uint32_t fid, uint64_t arg) { h_arg1((int32_t)fid, XRAY_FN_ENTER_ARG, arg); }
void evt_xray_custom_event(const void *data, size_t size) { h_custom((void *)(uintptr_t)data, size); }
void evt_xray_typed_event(uint16_t type, const void *data, size_t size) { h_typed(type, data, size); }

/* ---- control ---------------------------------------------------------------------------------- */

static uint32_t env_u32(const char *name, uint32_t v)
{
    const char *s = getenv(name);
    if (v || !s || !*s) return v;
    char *e;
    unsigned long x = strtoul(s, &e, 0);
    return (*e || x > 0xFFFFFFFFul) ? 0 : (uint32_t)x;
}

int evt_xray_start(const evt_xray_config *cfg)
{
    if (g_started) return -1;
    evt_xray_config c = cfg ? *cfg : (evt_xray_config){0, 0, 0};
    c.buffer_size = env_u32("EVT_XRAY_BUFFER_SIZE", c.buffer_size);
    c.buffer_count = env_u32("EVT_XRAY_BUFFER_COUNT", c.buffer_count);
    if (!c.buffer_size) c.buffer_size = 16384;
    if (!c.buffer_count) c.buffer_count = 100;
    c.buffer_size &= ~7u;
    if (c.buffer_size < EVT_XRAY_MIN_BUF || (uint64_t)c.buffer_size * c.buffer_count > 0xFFFFFFFFull) return -1;
    free(g_mem);
    free(g_bufs);
    g_mem = malloc((size_t)c.buffer_size * c.buffer_count);
    g_bufs = calloc(c.buffer_count, sizeof *g_bufs);
    if (!g_mem || !g_bufs) return -1;
    /* Touch the memory now so the first events do not pay for page faults. */
    memset(g_mem, 0, (size_t)c.buffer_size * c.buffer_count);
    if (evt_xray_pool_init(&g_pool, g_mem, c.buffer_size * c.buffer_count, g_bufs, c.buffer_count,
                           (uint32_t)getpid(), walltime) != 0)
        return -1;
    if (!g_hz) { g_hz = calibrate_hz(); cpu_flags(); }
    g_started = 1;
    evt_gate_publish(&evt_xray_gate, 1u, 1u);
    g_handlers = 0;
    if (!c.no_xray_handlers && __xray_set_handler) {
        if (__xray_set_handler(h_arg0) != 1) return -1; /* XRay not initialised */
        if (__xray_set_handler_arg1) __xray_set_handler_arg1(h_arg1);
        if (__xray_set_customevent_handler) __xray_set_customevent_handler(h_custom);
        if (__xray_set_typedevent_handler) __xray_set_typedevent_handler(h_typed);
        if (__xray_patch) __xray_patch();
        g_handlers = 1;
    }
    return 0;
}

/* Stop's half of the handshake (gate closed): wait for the records in flight, then release every
 * writer's buffer (FULL, its records counted written). The calling thread's own record, if stop
 * runs in a handler that interrupted one, cannot be waited for: its buffer stays with it. */
static void quiesce(void)
{
    (void)evt_posix_membarrier();
    /* records of threads past their exit hook (not this thread's own: a stop nested in one) */
    while (atomic_load_explicit(&g_unlinked, memory_order_acquire) > t_x.unlinked) sched_yield();
    sigset_t old;
    reg_lock(&old);
    for (xr_thread *x = g_threads; x; x = x->next) {
        if (x == &t_x) { /* this thread: busy only if stop interrupted its record */
            if (!x->w.nest.busy) evt_xray_writer_release(&x->w);
            continue;
        }
        while (__atomic_load_n(&x->w.nest.busy, __ATOMIC_ACQUIRE)) sched_yield();
        evt_xray_writer_release(&x->w); /* a record that starts now sees the gate closed: touches only its guard */
    }
    reg_unlock(&old);
}

int evt_xray_stop(void)
{
    if (!g_started) return -1;
    evt_gate_publish(&evt_xray_gate, 0u, 0u);
    if (g_handlers) {
        __xray_remove_handler();
        if (__xray_remove_handler_arg1) __xray_remove_handler_arg1();
        if (__xray_remove_customevent_handler) __xray_remove_customevent_handler();
        if (__xray_remove_typedevent_handler) __xray_remove_typedevent_handler();
        g_handlers = 0;
    }
    quiesce();
    g_started = 0;
    return 0;
}

uint64_t evt_xray_buffers_lost(void) { return __atomic_load_n(&g_pool.lost, __ATOMIC_RELAXED); }
uint64_t evt_xray_records_dropped(void)
{
    evt_rec_stats rs; /* the one account (loss.dropped): every drop path counts there, stats agree */
    evt_xray_pool_rec_stats(&g_pool, &rs);
    return rs.dropped;
}
uint64_t evt_xray_cycle_hz(void) { return g_hz; }
void evt_xray_get_rec_stats(evt_rec_stats *out)
{
    if (out) evt_xray_pool_rec_stats(&g_pool, out);
}

static int write_all(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t k = write(fd, b, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static int cmp_seq(const void *a, const void *b)
{
    const evt_xray_buf *x = *(evt_xray_buf *const *)a, *y = *(evt_xray_buf *const *)b;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The file is written beside path under a temporary name and renamed over it once whole, so a
 * failed write (a full disk) leaves an earlier file at path as it was and no part of this one.
 * A session in which no buffer holds anything (nothing recorded, or every record dropped: the
 * header's field then carries the count) gets one block with no records, the calling thread's
 * preamble: compiler-rt writes the header alone there, which llvm-xray rejects ("no blocks" in
 * our reader too); it reads this block as no records. */
/* A new file beside path, "<path>.tmp.<pid>.<n>" (n counts up past names already taken), opened
 * for writing; its name in tmp. Returns the descriptor, or -1. Also the map's (xray_cyg.c). */
int evt_xray_open_tmp_(const char *path, char *tmp, size_t size)
{
    static unsigned g_tmp_seq;
    for (int tries = 0; tries < 64; tries++) {
        int k = snprintf(tmp, size, "%s.tmp.%ld.%u", path, (long)getpid(), __atomic_add_fetch(&g_tmp_seq, 1u, __ATOMIC_RELAXED));
        if (k < 0 || (size_t)k >= size) return -1;
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

int evt_xray_write_file(const char *path)
{
    if (!g_mem || !path) return -1;
    char tmp[4096];
    int fd = evt_xray_open_tmp_(path, tmp, sizeof tmp);
    if (fd < 0) return -1;
    evt_xray_buf **order = calloc(g_pool.nbufs, sizeof *order);
    if (!order) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < g_pool.nbufs; i++)
        if (__atomic_load_n(&g_bufs[i].extents, __ATOMIC_ACQUIRE) > 0) order[n++] = &g_bufs[i];
    qsort(order, n, sizeof *order, cmp_seq);
    uint8_t hdr[XRAY_HDR_SIZE], ext[XRAY_MD_REC_SIZE], pre[4u * XRAY_MD_REC_SIZE];
    /* Losses travel in loss records; the header's dropped-records field carries what is still
     * pending (no record of any thread got through after them), saturated at 0xFFFFFFFF (at least
     * that many; the stats keep the exact count) rather than wrapped. Whole buffers overwritten are
     * counted in records (L2), so the header's buffer count stays 0 (the reader adds both). */
    evt_xray_file_header(hdr, g_hz, g_const_tsc, g_nonstop_tsc, g_pool.buf_size, 0u, evt_xray_header_dropped(&g_pool));
    int rc = write_all(fd, hdr, sizeof hdr);
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        uint32_t len = __atomic_load_n(&order[i]->extents, __ATOMIC_ACQUIRE);
        evt_xray_extents_record(ext, len);
        const uint8_t *data = g_mem + (size_t)(order[i] - g_bufs) * g_pool.buf_size;
        rc = write_all(fd, ext, sizeof ext);
        if (rc == 0) rc = write_all(fd, data, len);
    }
    free(order);
    if (rc == 0 && n == 0) { /* no block: one with no records (above) */
        evt_xray_preamble(pre, &g_pool, (uint32_t)syscall(SYS_gettid), now_cpu(), now_tsc());
        evt_xray_extents_record(ext, sizeof pre);
        rc = write_all(fd, ext, sizeof ext);
        if (rc == 0) rc = write_all(fd, pre, sizeof pre);
    }
    if (close(fd) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        (void)unlink(tmp);
        return -1;
    }
    if (evt_xray_cyg_count && evt_xray_cyg_count() && evt_xray_write_map) {
        char mp[4096];
        snprintf(mp, sizeof mp, "%s.map.yaml", path);
        rc = evt_xray_write_map(mp);
    }
    return rc;
}

/* Test helpers for the FreeRTOS kernel applications (tests/kernel/freertos: outsider_app.c,
 * matrix_app.c, gap_app.c), which count what the real kernel did and print it for check_freertos.py
 * to compare with the trace: FreeRTOS's own per-task counters, kept in its trace hooks (their
 * FreeRTOSConfig.h calls these), the application's counts of its calls by result, the recording
 * (a TXTB snapshot in memory written to OUT at the end, or an RKH stream into OUT) and the end of
 * the counters line. No FreeRTOS header: the applications call these from their own code. */
#ifndef EVT_FREERTOS_TEST_H
#define EVT_FREERTOS_TEST_H

#include <stdint.h>

/* configASSERT's failure: says where, then aborts. */
void evt_freertos_test_assert(const char *file, int line);
/* Busy for us microseconds of the port's timestamp counter. */
void evt_freertos_test_spin_us(unsigned us);

/* ---- FreeRTOS's counters, by TCB, from the trace hooks --------------------------------------------- */

typedef struct evt_freertos_test_task {
    void *tcb;
    unsigned switch_ins, ready, inherits, disinherits;
    /* Clock ticks of the switches at either end of its slices where the thread was held up between
     * FreeRTOS's run-time read (before it picks the next task) and the trace's switch-in record
     * (after it): a window longer than EVT_FREERTOS_TEST_HELD_US, which only a host or Linux
     * preempting the simulator's thread there makes. FreeRTOS and the trace then split that
     * window's time between the two tasks differently; check_freertos.py allows it. */
    uint64_t held;
} evt_freertos_test_task;
#define EVT_FREERTOS_TEST_HELD_US 10u

/* The run-time stats clock (ticks at hz): the port's timestamp counter unless set (before the
 * scheduler starts). */
void evt_freertos_test_set_clock(uint64_t (*clock)(void), uint64_t hz);
/* portALT_GET_RUN_TIME_COUNTER_VALUE: the clock since the first switch-in (0 before it). */
uint64_t evt_freertos_test_run_time(void);
/* traceTASK_SWITCHED_IN: a switch-in of a task other than the one running. */
void evt_freertos_test_switched_in(void *tcb);
/* A move to ready of a task other than the running one (the running one is no wake-up). */
void evt_freertos_test_ready(void *tcb);
void evt_freertos_test_inherited(void *tcb);
void evt_freertos_test_disinherited(void *tcb);
/* A deleted task's counts end with it (a task created later at its TCB counts from zero). */
void evt_freertos_test_deleted(void *tcb);
/* The counts of tcb (zero at its first sight), or NULL when more tasks than the table holds. */
evt_freertos_test_task *evt_freertos_test_task_of(void *tcb);

/* ---- the application's counts of its calls by result ---------------------------------------------
 * An X-macro list X(NAME, "json key") of at most EVT_FREERTOS_TEST_NCOUNTS: its enum C_NAME from
 * EVT_FREERTOS_TEST_ENUM, its keys from EVT_FREERTOS_TEST_KEY. CNT(C_NAME) counts one, CNT_IF one of
 * two by a call's result. */
#define EVT_FREERTOS_TEST_NCOUNTS 96
#define EVT_FREERTOS_TEST_ENUM(n, s) C_##n,
#define EVT_FREERTOS_TEST_KEY(n, s) s,
extern volatile unsigned evt_freertos_test_count[EVT_FREERTOS_TEST_NCOUNTS];
/* One read-modify-write: tasks of any priority count the same call, and a tick may switch a task
 * out between a plain ++'s load and store (an increment lost: "eg set: trace 280, FreeRTOS 279"). */
#define CNT(i) __atomic_fetch_add(&evt_freertos_test_count[(i)], 1u, __ATOMIC_RELAXED)
#define CNT_IF(cond, ok, fail) ((cond) ? CNT(ok) : CNT(fail))

/* ---- the recording and the run's end --------------------------------------------------------------- */

/* Start recording: mode "stream", RKH into the file out on clock; otherwise a snapshot of size bytes
 * with `registry` entries, written to out at the end. Returns 0, or -1. */
int evt_freertos_test_start(const char *mode, const char *out, uint32_t size, uint32_t registry,
                            uint32_t (*clock)(void));
/* outsider_app and matrix_app's main: MODE OUT MS [BUF_KIB [REGISTRY]] (a snapshot of 32 MiB with 64
 * registry entries by default; the stream on the port's clock), *ms, the recording started. Returns 0,
 * or main's exit status after saying why: 2 (usage), 1 (the recording did not start). */
int evt_freertos_test_begin(int argc, char **argv, unsigned *ms);
/* The run's end: the recording stopped, the counters line printed by report, the trace's file closed
 * (the snapshot written to it); exits 0, or 1 when the file could not be written. */
_Noreturn void evt_freertos_test_end(void (*report)(void));
/* The counters line's end (after its opening "counts":{): the counts as keys[i]:count, for the
 * snapshot the recorder's accounting ("txtb": written, dropped), then the line's newline. */
void evt_freertos_test_report_end(const char *const *keys, int n);

#endif

/* Single-stepping for the step tests (test_*_step*.c): EVT_STEP_OK says whether this build can
 * step (x86-64 Linux, not sanitized: there thousands of instructions per record, each a signal,
 * take minutes, and what is stepped is the instrumented code, not the one shipped; the tests
 * exit 77 elsewhere), and evt_step_trap_on/off set and clear the trap flag (SIGTRAP after every
 * instruction until cleared). */
#ifndef EVT_STEP_H
#define EVT_STEP_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EVT_STEP_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EVT_STEP_SANITIZED 1
#endif
#if defined(__x86_64__) && defined(__linux__) && !defined(EVT_STEP_SANITIZED)
#define EVT_STEP_OK 1
/* Out of line, so that no red zone of the caller lies under the flags pushed. */
static __attribute__((noinline, unused)) void evt_step_trap_on(void)
{
    __asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
}
static __attribute__((noinline, unused)) void evt_step_trap_off(void)
{
    __asm__ volatile("pushfq; andq $-257, (%%rsp); popfq" ::: "memory", "cc");
}
#else
#define EVT_STEP_OK 0
static __attribute__((unused)) void evt_step_trap_on(void) {}
static __attribute__((unused)) void evt_step_trap_off(void) {}
#endif

#endif

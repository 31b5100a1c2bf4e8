/* A fake backend of the generic kernel hooks for tests (EVT_CFG_HOOKS_BACKEND=test): every
 * evt_test_hook_* call is appended to a log that tests read back. Shared by the hooks' switch test
 * and the μT-Kernel adapter test. */
#ifndef EVT_FAKE_HOOKS_H
#define EVT_FAKE_HOOKS_H

#include <stdint.h>
#include "evtrace/hooks_defs.h"

/* What a logged call was. */
enum { FH_INFO = 1, FH_IN, FH_OUT, FH_ISR_IN, FH_ISR_OUT, FH_SVC_IN, FH_SVC_OUT, FH_CRE, FH_DEL, FH_USER, FH_KINDS };

typedef struct fh_rec {
    int what;             /* FH_* */
    uintptr_t obj;        /* thread / object handle */
    uint32_t a, b;        /* info: kernel, version | in: prio | out: state, native | isr: irq |
                             svc out: -, ret | create: type, param | delete: type | user: id, sum */
    int32_t code;         /* service code */
    uint32_t nargs;       /* service arguments */
    uintptr_t args[5];
    int paired;           /* svc leave: enter was seen */
    char name[16];        /* create: the name ("(null)" for NULL) */
    uint64_t t;           /* fh_clock() at the call, 0 without one */
} fh_rec;

#define FH_MAX 512
extern fh_rec fh_log[FH_MAX]; /* the calls, in order */
extern int fh_n;              /* how many */
extern uint64_t (*fh_clock)(void); /* stamps each call when set */

void fh_reset(void);
int fh_count(int what);                        /* calls of one kind */
int fh_find(int from, int what);               /* first index >= from of that kind, or -1 */
int fh_find_code(int from, int what, int32_t code);

#endif

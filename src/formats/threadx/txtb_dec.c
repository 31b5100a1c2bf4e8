/* TXTB reader: decodes a ThreadX trace buffer dump (either byte order) into canonical events,
 * oldest first, reading the slots through a fixed read window.
 *
 * Memory is bounded whatever the file size (docs/threadx.md): the registry is read in place, one
 * entry at a time; only a compact index of its used entries is kept (address, slot, name offset, type, params;
 * at most TXTB_MAX_OBJS) and their names up to TXTB_NAMES_MAX bytes (names past that are read from
 * the file when an event needs them). At most TXTB_REG_READ_MAX bytes of registry are read. A file shorter than the header's event-buffer end decodes
 * the slots it holds and reports where it ends.
 *
 * Fields: besides the context's priority, resume/suspend state and next thread, ISR id and LOST
 * counts, every info word with a role in txtb_defs.h's TXTB_INFO_ROLE_TABLE is a numeric field
 * ("enqueued", "sem_count", "owner", "stk", ...), and a stack sample taken in a registered
 * thread carries that thread's registry stack ("ctx_stack_start", "ctx_stack_size").
 *
 * Order: if the slot at the current pointer was written, the buffer wrapped and the oldest entry
 * is there; otherwise the entries are slots 0..current-1. Timestamps are masked with the header's
 * timer mask and unwrapped to 64 bits; a first pass decides whether the timer counts up or down
 * (as TraceX does), so `ts` only grows in both cases.
 *
 * Per event (docs: no per-event formatting or search): the slot is read in place from the window;
 * what its id word alone decides (name, kind, target rule, the profile's service meaning, the info
 * roles' fields and levels) comes from a direct-mapped cache built once per id word and kernel
 * profile (txtb_idm); object names from a memo of find_obj's answers and the last context's. The
 * reader resets its own events (EVT_READER_RESETS: slot_reset zeroes only what decode_slot does not
 * write), takes the slots of a run adjacent in time order and in the window without recomputing
 * where they are (run_start), and counts an event's fields in registers (txtb_fields). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/hooks_defs.h"
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "formats/common/cursor.h"
#include "formats/common/name_cache.h"
#include "formats/common/text_ok.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_hooks_objmap.h"
#include "formats/threadx/txtb_hooks_dec.h"
#include "formats/threadx/txtb_names.h"
#include "host/event_reset.h"
#include "host/safe_text.h"
#include "host/u64map.h"
#include "host/kernels/kernel_profile.h"
#include "formats/user/user_dec.h"
#include "evtrace/user_defs.h"

#define TXTB_MAX_OBJS   (1u << 20)    /* used registry entries indexed */
#define TXTB_NAMES_MAX  (16u << 20)   /* bytes of names kept in memory */
#define TXTB_REG_READ_MAX (64u << 20) /* registry bytes read (real registries: a few KiB) */
#define TXTB_MAX_IDS    (1u << 16)    /* distinct event ids counted in count_by_id */
#define TXTB_DIR_SCAN   (1u << 20)    /* slots that decide the timer direction (32 MiB) */
#define TXTB_WIN        (1u << 20)    /* read window (grows to one registry entry if larger) */
#define TXTB_NAME_NONE  UINT32_MAX
/* Off the per-event path (rare cases): kept out of next() so that it stays small. */
#if defined(__GNUC__)
#define TXTB_COLD __attribute__((noinline, cold))
#else
#define TXTB_COLD
#endif
/* On the per-event path: inlined whatever the compiler's estimate (decode_slot: one copy per byte order). */
#if defined(__GNUC__)
#define TXTB_INLINE static inline __attribute__((always_inline))
#else
#define TXTB_INLINE static inline
#endif
#define TXTB_IDM_N      1024u         /* id meanings cached (direct-mapped by the slot's id word: 2^10) */
#define TXTB_STM_N      64u           /* suspend states whose meaning is cached */

/* One used registry entry in the lookup index (sorted by address, live before deleted, slot). */
typedef struct txtb_obj {
    uint32_t addr;
    uint32_t index;      /* registry slot */
    uint32_t name_off;   /* offset in names[], or TXTB_NAME_NONE: read from the file */
    uint32_t param1, param2; /* registry parameters (threads: stack start and size) */
    uint8_t available;   /* 0 alive, 1 deleted */
    uint8_t type;        /* registry object type */
    uint8_t name_ok;     /* the kept name may be vouched for (formats/common/text_ok.h) */
    uint16_t prio1;      /* a thread's priority as last known + 1 (0: unknown): the registry's, then
                          * its records' priority words, its create, priority changes and
                          * inheritances (prio_case); with user1, inh1, pgen, give, rdy and eqt the
                          * only members that change after open */
    uint16_t user1;      /* its user priority + 1 (ThreadX's tx_thread_user_priority; 0: unknown):
                          * known only from this trace's records, its create and priority changes */
    uint16_t inh1;       /* its inherit priority + 1 (tx_thread_inherit_priority), TXTB_INH_NONE for
                          * none (TX_MAX_PRIORITIES), 0 unknown (prio_case) */
    uint32_t pgen;       /* the loss generation user1 and inh1 hold (txtb_state.pgen: prio_fresh) */
    uint32_t give;       /* TXTB_GV_* | generation: what this thread's service records left open
                          * for the resumes it writes next (wake_case) */
    uint8_t rdy;         /* TXTB_RDY_*: on ThreadX's ready lists, as its resumes and suspends say
                          * (ready_case); unknown before them and after a loss (pgen) */
    uint8_t eqt;         /* TXTB_EQT_*: its preemption threshold is its priority (no threshold in
                          * use), as its create, priority and preemption changes and eqt_ahead
                          * say; unknown likewise; pw, when set, is newer (eqt_of) */
    uint32_t pw;         /* its last priority word of the current form (with its threshold) since
                          * such a record, else 0: one store on a thread record's path */
    uint32_t ahead_to;   /* eqt_ahead found nothing in the time order before this (txtb_state.pos) */
} txtb_obj;
enum { TXTB_RDY_UNKNOWN, TXTB_RDY_YES, TXTB_RDY_NO };
enum { TXTB_EQT_UNKNOWN, TXTB_EQT_YES, TXTB_EQT_NO };
#define TXTB_INH_NONE 0xFFFFu

/* One registry entry as stored, parsed field by field (name: NUL-terminated copy). */
typedef struct txtb_entry {
    uint8_t available, type, res1, res2;
    uint32_t addr, param1, param2;
    size_t name_len;
} txtb_entry;

typedef struct txtb_win {
    uint64_t off;        /* source offset of buf[0] */
    size_t len, cap;     /* valid bytes, size of buf */
    uint8_t *buf;
} txtb_win;

/* One answer of find_obj: the object at addr (NULL: none), key = addr | 1 << 32 (0: empty). */
typedef struct txtb_objmemo {
    uint64_t key;
    const struct txtb_obj *obj;
} txtb_objmemo;
#define TXTB_OBJMEMO_N 1024u /* a power of two */

/* Buffers that hold a name read from the file while an event points at it: one per role. */
enum { NAME_CTX, NAME_TARGET, NAME_INTERRUPTED, NAME_HOOKS, NAME_ROLES };

typedef struct id_count { uint32_t id; uint64_t count; } id_count;

/* What decode_slot adds for an id's kind (txtb_idm.kcase): nothing, a thread's state and the next
 * thread (TXTB_K_RUN, _STOP), the ISR id (_ISR_IN, _OUT), the LOST counts (_LOST). */
enum { TXTB_KC_NONE, TXTB_KC_THREAD, TXTB_KC_ISR, TXTB_KC_LOST };

/* Thread API records that change a thread's state without a THREAD_SUSPEND / THREAD_RESUME of
 * their own, in native buffers (txtb_idm.dsusp; the thread is info1 of each, info2 its state):
 * - delayed suspension (tx_thread_suspend.c, tx_thread_system_resume.c): tx_thread_suspend of a
 *   thread that waits only sets a flag (SET); the internal resume that ends such a wait
 *   (THREAD_RESUME: a timeout, the object given, an abort) then leaves the thread suspended, not
 *   ready, and clears it (RESUME); tx_thread_resume and delete clear it (CLEAR);
 * - tx_thread_terminate of a thread that is not ready sets it terminated directly (TERMINATE;
 *   tx_thread_terminate.c: a ready one gets a THREAD_SUSPEND), and clears the flag;
 * - tx_thread_reset makes a terminated or completed thread suspended (RESET; info2 is the new
 *   state), and clears the flag. */
enum { TXTB_DS_NONE, TXTB_DS_SET, TXTB_DS_CLEAR, TXTB_DS_RESUME, TXTB_DS_TERMINATE, TXTB_DS_RESET };

/* Records that change a thread's priority with no priority word of that thread (txtb_idm.pcase,
 * native buffers): THREAD_CREATE (info2 its priority), THREAD_PRIORITY_CHANGE (info2 the new one)
 * and MUTEX_GET, whose priority inheritance ThreadX writes no record for; and MUTEX_PUT, which
 * ends what the reader knows of its owner's inherit priority (prio_case). */
enum { TXTB_PC_NONE, TXTB_PC_CREATE, TXTB_PC_CHANGE, TXTB_PC_MUTEX_GET, TXTB_PC_MUTEX_PUT };
/* Records that change what ready_case follows (txtb_idm.rcase, native buffers): a thread's state
 * (THREAD_RESUME, THREAD_SUSPEND and the thread API records of thread_api_state: the event's kind
 * says the outcome), its preemption threshold (THREAD_PREEMPTION_CHANGE), a time slice's end
 * (TIME_SLICE: slice_case; not an SMP kernel's, whose one TIME_SLICE covers every core and which
 * counts every expiry of a ready thread, common_smp/src/tx_thread_time_slice.c). */
enum { TXTB_RC_NONE, TXTB_RC_STATE, TXTB_RC_THRESHOLD, TXTB_RC_SLICE };

/* Why a THREAD_RESUME of a waiting thread happens (wake_case), from what its recording context
 * wrote before it. ThreadX writes a giving service's record first and resumes its waiters inside
 * it (tx_semaphore_put.c, tx_queue_send.c, ...); a timeout resumes with no record of its own
 * (tx_thread_timeout.c calls the object's cleanup, which resumes); tx_thread_wait_abort writes
 * THREAD_WAIT_ABORT, sets the thread SUSPENDED and resumes it. Each context's give holds:
 * - the wait state (TXTB_STATE_QUEUE_SUSP .. _MUTEX_SUSP) that its last service record gives,
 *   TXTB_GV_MANY when it may resume more than one waiter (flags set, byte release, flush, delete),
 *   TXTB_GV_DELETED for a delete (its waiters wake with TX_DELETED);
 * - TXTB_GV_ABORT after THREAD_WAIT_ABORT; 0 after any other record, which gives nothing;
 * and above TXTB_GV_BITS the loss generation (txtb_state.give_gen) it was written in: where
 * records may be missing (a wrapped buffer's start, a loss) the generation moves on, and a byte
 * of an older one is not known (forget_lost: one step, whatever the number of contexts).
 * Its THREAD_RESUME and THREAD_SUSPEND records keep it (a mutex put's priority-change pair comes
 * between the put and the handoff); wake_case ends a give of one waiter and a self-suspend. */
enum {
    TXTB_GV_STATE = 0x0Fu,   /* the wait state given */
    TXTB_GV_MANY = 0x10u,
    TXTB_GV_DELETED = 0x20u,
    TXTB_GV_ABORT = 0x40u,
    TXTB_GV_BITS = 0xFFu     /* the give; the generation above */
};
#define TXTB_GV_GEN_STEP 0x100u
/* What a THREAD_RESUME or THREAD_SUSPEND id does with the context's give (txtb_idm.wcase). */
enum { TXTB_WC_NONE, TXTB_WC_RESUME, TXTB_WC_SUSPEND };
#define TXTB_EXEC_UNKNOWN UINT64_MAX /* txtb_state.exec not known (an execute pointer is 32 bits) */
#define TXTB_AHEAD_SLOTS 4096u /* the most slots one eqt_ahead looks at */
#define TXTB_AHEAD_BUDGET 64u  /* eqt_ahead's and slice_case's looks per slot of the file (ahead_left) */

/* What an event's id word alone decides (kind, name, target rule, service meaning, info roles),
 * worked out once per id word and kernel profile and reused for every event with it (idm_get). */
typedef struct txtb_idm {
    uint64_t key;            /* id word | 1 << 32 (idm[]) or | 3 << 32 (idm190[], id 190); 0: empty */
    uint32_t id;             /* the id, CPU bits removed */
    uint32_t cpu;            /* the CPU of an SMP kernel id (has_cpu) */
    uint8_t has_cpu;
    unsigned ev_flags;       /* EVT_HAS_CTX | EVT_HAS_PRIO, and EVT_HAS_CPU with has_cpu: its events' flags before a target or count */
    uint8_t k;               /* TXTB_K_* of the id's row (TXTB_K_OTHER without one) */
    uint8_t kcase;           /* TXTB_KC_*: what decode_slot adds for k */
    uint8_t dsusp;           /* TXTB_DS_*: its part in a delayed suspension (native buffers) */
    uint8_t pcase;           /* TXTB_PC_*: a thread's priority it changes (native buffers) */
    uint8_t tcreate;         /* TIMER_CREATE: an auto-activation is an activation (timer_case) */
    uint8_t wcase;           /* TXTB_WC_*: a resume's cause, a suspend's end of a give (wake_case) */
    uint8_t rcase;           /* TXTB_RC_*: the ready lists and time slices it changes (ready_case) */
    uint8_t cold_case;       /* dsusp, pcase, tcreate, wcase or rcase is set: decode_slot's cold per-id cases */
    uint32_t give_keep;      /* the context's give: kept whole (UINT32_MAX), else give_set | give_gen */
    uint8_t give_set;
    uint8_t kind;            /* evt_kind */
    uint8_t target;          /* 0 no target, 1 info1 is the target, 2 only when info1 is a registry object */
    uint8_t svc;             /* a service/create/delete: the meaning below applies */
    uint8_t user_rec;        /* an id of evtrace/user.h records (user_record) */
    uint8_t hooks;           /* txtb_hooks_dec_wants() of its events */
    uint8_t obj_type, op, op_result; /* the meaning's members (m_has says which hold) */
    uint8_t nput, nlevel;    /* info fields and levels below */
    uint8_t put_ok;          /* (1 << nput) - 1: their fields_ok bits from the first */
    uint8_t stk;             /* an info is a stack sample (TXTB_R_STK) */
    uint8_t nmrole;          /* infos with an owner/stack role of the meaning block */
    uint8_t mrole[4], mrole_w[4]; /* their roles and info index (0..3), in info order */
    uint8_t put_w[4], level_w[4], level_kind[4]; /* info index (0..3) of each field, level */
    const char *put_key[4];  /* field keys in info order (k_role_field) */
    const uint8_t *roles;    /* the id's roles (NULL: add_role_fields has nothing to do) */
    const char *name, *ok_name; /* ev->name; ok_name == name when vouched for */
    const char *label, *ok_label; /* ev->m.label of a service (svc); ok_label when vouched for */
    unsigned m_has;          /* EVT_M_* the service meaning sets */
    unsigned vouched;        /* next()'s usual path (no hooks, no user record): EVT_TEXT_OK_NAME
                              * (ok_name), _LABEL (a service's label, vouched for, or none), and the
                              * strings it leaves NULL or sets only vouched for (idm_build) */
    id_count *cnt;           /* the id word's entry of counts[] (NULL: none yet; count_id re-points it) */
} txtb_idm;

typedef struct txtb_state {
    evt_reader *r;
    int big;                     /* byte order of the buffer */
    uint32_t hdr[12];            /* the 12 header words (name size/reserved1 split below) */
    uint16_t name_size, reserved1;
    uint32_t mask;               /* timer valid mask */
    uint64_t ts_mod;             /* modulus of the masked counter (ts_modulus) */
    uint32_t ts_low;             /* ts_mod - 1: a power of two at most 2^32, so this fits */
    uint64_t reg_off, ev_off;    /* file offsets of registry and event area */
    uint32_t reg_entries, reg_entry_size;
    uint32_t reg_present;        /* registry entries read: inside the file and TXTB_REG_READ_MAX */
    uint32_t capacity;           /* event slots (header) */
    uint32_t avail;              /* event slots wholly inside the file (< capacity: truncated) */
    uint32_t current;            /* index of the current-pointer slot */
    int wrapped;
    txtb_obj *objs;              /* used entries by address (find_obj) */
    uint32_t nobjs;
    int objs_over;               /* more used entries than TXTB_MAX_OBJS: objs is not all of them */
    char *names;                 /* NUL-terminated names of objs, TXTB_NAMES_MAX at most */
    size_t names_len, names_cap;
    char *rolebuf[NAME_ROLES];   /* name_size + 1 bytes each */
    txtb_win rwin, ewin;         /* registry and event-slot windows */
    txtb_win awin;               /* eqt_ahead's slots (allocated at its first use) */
    uint64_t ahead_left;         /* slots eqt_ahead, and threads slice_case, may still look at (the
                                    bound of both over the file: TXTB_AHEAD_BUDGET per slot) */
    uint32_t *thr, nthr;         /* objs' threads (thread_list) */
    uint32_t ewin_first, ewin_slots; /* ewin holds slots [ewin_first, ewin_first + ewin_slots) whole, all < avail */
    int timer_down;              /* 1: timer counts down */
    uint8_t seen_sched, seen_thread_api, seen_cpu; /* ids of these kinds were read (note_counts) */
    uint8_t seen_next_self;      /* a THREAD_RESUME's info4 named its own thread (counts_update) */
    uint8_t preempt_unknown;     /* a record may have preempted a thread, not known (counts_update) */
    uint64_t decreases, increases;
    /* iteration */
    uint32_t pos;                /* events visited in chronological order (0..span) */
    uint32_t span;               /* slots in chronological order to visit */
    uint32_t seg1;               /* slots [current, avail) first when wrapped, then [0, current) */
    uint32_t cut_lost;           /* a truncated file: written slots it lacks (at least), one lost event */
    uint32_t cut_pos;            /* ... given when pos reaches it (seg1: wrapped; span: at the end) */
    /* the run: the slots after the one next() took last that are adjacent to it in time order and
     * in the event window (run_left of them, the first at run_p, file offset run_off); whatever
     * else reads a slot or moves pos ends it (run_left = 0: skip_unwritten, user_record) */
    const uint8_t *run_p;
    uint64_t run_off;
    uint32_t run_left;
    uint32_t ts_neg;             /* UINT32_MAX when the timer counts down, else 0 (ts_dir) */
    uint32_t prev_dir;           /* ts_dir of the last event's masked timestamp (before the first: scan_direction) */
    uint64_t ts;
    uint32_t first_masked;       /* the first event's masked timestamp; the last one's: ts_dir(prev_dir) */
    uint64_t valid;
    uint64_t ctx_thread, ctx_isr, ctx_init;
    id_count *counts;            /* hash by id, ccap slots (power of two), count 0 = empty */
    uint32_t ncounts, ccap;
    uint64_t untracked_ids;      /* events whose id did not fit in count_by_id */
    char namebuf[48];
    evt_name_cache idnames;      /* names formatted from an id (USER_<id>, UNKNOWN_<id>): once per id */
    txtb_objmemo objmemo[TXTB_OBJMEMO_N]; /* find_obj's answers by address hash */
    /* the thread context of the last event, which the next one mostly shares (ctx_named) */
    uint64_t ctx_key;            /* its address | 1 << 32; 0: none */
    const txtb_obj *ctx_obj;     /* its registry object (NULL: none) */
    uint16_t *ctx_prio1;         /* ctx_obj's prio1 when it is a thread's entry, else a dummy */
    uint16_t prio1_dummy;
    uint32_t *ctx_pw;            /* ctx_obj's pw likewise */
    uint32_t pw_dummy;
    uint32_t *thr_give;          /* ctx_obj's give when it is a thread's entry, else &give_dummy */
    uint32_t give_isr, give_init, give_dummy; /* the gives of the ISR and init contexts, and of
                                    threads without an entry (never read: no cause from it) */
    uint32_t give_gen;           /* the loss generation, in the bits above TXTB_GV_BITS (forget_lost) */
    uint32_t pgen;               /* the loss generation of user1 and inh1 (forget_lost) */
    uint64_t exec;               /* _tx_thread_execute_ptr as the last record naming it said (a
                                    resume's or suspend's info4, a relinquish's or time slice's
                                    next thread); TXTB_EXEC_UNKNOWN from the start and at a loss */
    const char *ctx_name, *ctx_ok; /* its name and that name when vouched for */
    unsigned ctx_vbit;           /* EVT_TEXT_OK_CTX_NAME when ctx_name needs no check (vouched or NULL) */
    int beyond_checked;
    txtb_hooks_dec hooks;        /* records of the generic kernel hooks (txtb_hooks_dec.c) */
    evt_user_dec *user;          /* evtrace/user.h records (user_dec.c), created at open */
    int user_sites;              /* a wrapped buffer holds user.h SITE or ANCHOR records (user_sites_first) */
    uint32_t torn;               /* its oldest slots that continue a user.h record whose first slot the
                                    wrap overwrote: not shown (user_torn) */
    uint32_t uwords[4u * 1024u]; /* one user record's words, gathered from its slots */
    /* the kernel profile decoded with (profile()): for its reader kernel, generation gen */
    const evt_kernel_profile *kp;
    int kp_kernel;               /* r->kernel_user when kp was looked up (INT_MIN: not yet) */
    uint32_t gen;                /* bumped when kp changes (idm[] is emptied): stm_* are stale */
    txtb_idm *idm;               /* TXTB_IDM_N entries (open) */
    txtb_idm idm190[2];          /* id 190 as a LOST record [0] and as a marker-less one [1] */
    uint32_t stm_gen[TXTB_STM_N]; /* suspend state s < TXTB_STM_N: meaning cached while stm_gen[s] == gen */
    unsigned stm_has[TXTB_STM_N];
    uint8_t stm_stop[TXTB_STM_N];
    const char *stm_name[TXTB_STM_N]; /* txtb_thread_state_name of the states below TXTB_STM_N (open) */
    evt_u64map dsusp;            /* thread address -> 1 while its delayed suspension is pending, else 0 */
    uint32_t ndsusp;             /* threads with the flag set (0: a resume needs no lookup) */
} txtb_state;

static const evt_reader_option k_opts[] = {{"elf", "FILE", EVT_USER_ELF_OPTION_HELP}, {NULL, NULL, NULL}};

static int probe(const uint8_t *head, size_t len, uint64_t file_size)
{
    (void)file_size;
    if (len < 4) return 0;
    evt_cur c;
    evt_cur_init(&c, head, len, 0, 1);
    if (evt_cur_u32be_at(&c, 0) == TXTB_ID || evt_cur_u32le_at(&c, 0) == TXTB_ID) return 100; /* either byte order */
    return 0;
}

static uint32_t slot_index_of(const txtb_state *s, uint32_t k)
{
    /* k-th slot in chronological order: wrapped, [current, avail) then [0, current) */
    return k < s->seg1 ? s->current + k : k - s->seg1;
}

/* Pointer to n bytes at off through window w, or NULL when they are not all in the file. */
static const uint8_t *win_at(txtb_state *s, txtb_win *w, uint64_t off, size_t n)
{
    if (n > w->cap) return NULL;
    if (w->len && off >= w->off && off - w->off + n <= w->len) return w->buf + (off - w->off);
    w->off = off;
    w->len = evt_source_read_at(&s->r->src, off, w->buf, w->cap);
    return n <= w->len ? w->buf : NULL;
}

static int win_init(txtb_win *w, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->cap = cap;
    w->buf = evt_malloc(cap);
    return w->buf != NULL;
}

/* Slot idx's 32 bytes through the event window, refilled from idx; NULL when not in the file. */
static const uint8_t *slot_refill(txtb_state *s, uint32_t idx)
{
    s->ewin_slots = 0;
    if (idx >= s->avail) return NULL;
    const uint8_t *p = win_at(s, &s->ewin, s->ev_off + (uint64_t)idx * TXTB_EVENT_SIZE, TXTB_EVENT_SIZE);
    if (!p) return NULL;
    /* ewin is only read at slot offsets: its start is a slot; only slots inside the buffer count */
    s->ewin_first = (uint32_t)((s->ewin.off - s->ev_off) / TXTB_EVENT_SIZE);
    uint64_t n = s->ewin.len / TXTB_EVENT_SIZE;
    s->ewin_slots = (uint32_t)(n < s->avail - s->ewin_first ? n : s->avail - s->ewin_first);
    return p;
}

/* Slot idx's 32 bytes (valid until the next slot access), or NULL when not in the file. */
static inline const uint8_t *slot_at(txtb_state *s, uint32_t idx)
{
    uint32_t rel = idx - s->ewin_first; /* wraps above ewin_slots when idx < ewin_first */
    if (rel < s->ewin_slots) return s->ewin.buf + (size_t)rel * TXTB_EVENT_SIZE;
    return slot_refill(s, idx);
}

/* The 8 words of a slot whole in memory (slot_at), in the buffer's byte order (TXTB_EV_*: context,
 * priority, id, timestamp, info1..4). The cursor spans the slot, so its checks are known to pass
 * at compile time; one sequence per byte order. */
static inline void slot_words(const txtb_state *s, const uint8_t *slot, uint32_t w[8])
{
    evt_cur c;
    evt_cur_init(&c, slot, TXTB_EVENT_SIZE, 0, s->big);
    if (s->big) {
        w[0] = evt_cur_u32be(&c); w[1] = evt_cur_u32be(&c); w[2] = evt_cur_u32be(&c); w[3] = evt_cur_u32be(&c);
        w[4] = evt_cur_u32be(&c); w[5] = evt_cur_u32be(&c); w[6] = evt_cur_u32be(&c); w[7] = evt_cur_u32be(&c);
    } else {
        w[0] = evt_cur_u32le(&c); w[1] = evt_cur_u32le(&c); w[2] = evt_cur_u32le(&c); w[3] = evt_cur_u32le(&c);
        w[4] = evt_cur_u32le(&c); w[5] = evt_cur_u32le(&c); w[6] = evt_cur_u32le(&c); w[7] = evt_cur_u32le(&c);
    }
}

/* The word at byte off (TXTB_EV_*) of a slot whole in memory (slot_at), in byte order big, as
 * slot_words reads it: one load where big and off are constants. */
static inline uint32_t slot_word(const uint8_t *slot, size_t off, int big)
{
    evt_cur c;
    evt_cur_init(&c, slot, TXTB_EVENT_SIZE, 0, big);
    return big ? evt_cur_u32be_at(&c, off) : evt_cur_u32le_at(&c, off);
}
/* Context and timestamp words of a slot (slot_word). */
static inline uint32_t slot_ctx(const uint8_t *slot, int big) { return slot_word(slot, TXTB_EV_CONTEXT, big); }
static inline uint32_t slot_ts(const uint8_t *slot, int big) { return slot_word(slot, TXTB_EV_TIMESTAMP, big); }

static int read_slot(txtb_state *s, uint32_t idx, uint32_t w[8])
{
    const uint8_t *p = slot_at(s, idx);
    if (!p) return 0;
    slot_words(s, p, w);
    return 1;
}

/* Parse registry entry i (from the registry window); its name, NUL-terminated, into name
 * (name_size + 1 bytes) when name is not NULL. Returns 0 when the entry is not in the file. */
static int read_entry(txtb_state *s, uint32_t i, txtb_entry *e, char *name)
{
    uint64_t off = s->reg_off + (uint64_t)i * s->reg_entry_size;
    const uint8_t *p = i < s->reg_present ? win_at(s, &s->rwin, off, s->reg_entry_size) : NULL;
    if (!p) return 0;
    evt_cur c;
    evt_cur_init(&c, p, s->reg_entry_size, off, s->big);
    e->available = evt_cur_u8(&c);  /* TXTB_REG_AVAILABLE */
    e->type = evt_cur_u8(&c);       /* TXTB_REG_TYPE */
    e->res1 = evt_cur_u8(&c);       /* TXTB_REG_RESERVED1 */
    e->res2 = evt_cur_u8(&c);       /* TXTB_REG_RESERVED2 */
    e->addr = evt_cur_u32(&c);      /* TXTB_REG_POINTER */
    e->param1 = evt_cur_u32(&c);    /* TXTB_REG_PARAM1 */
    e->param2 = evt_cur_u32(&c);    /* TXTB_REG_PARAM2 */
    const uint8_t *nm = evt_cur_take(&c, s->name_size); /* TXTB_REG_NAME */
    if (!evt_cur_ok(&c)) return 0;
    e->name_len = 0;
    if (name) {
        size_t n = 0;
        while (n < s->name_size && nm[n]) n++;
        e->name_len = n;
        memcpy(name, nm, n);
        name[n] = 0;
    }
    return 1;
}

static int cmp_obj_addr(const void *a, const void *b)
{
    const txtb_obj *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    /* Same address: a live object sorts before a deleted one, then by index. */
    if (x->available != y->available) return x->available < y->available ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

static uint32_t obj_hash(uint32_t addr) { return (addr * 2654435761u) >> 22; } /* 10 bits: TXTB_OBJMEMO_N */

/* find_obj past its memo: the binary search, its answer memoised. */
TXTB_COLD static const txtb_obj *find_obj_slow(txtb_state *s, uint32_t addr)
{
    uint32_t lo = 0, hi = s->nobjs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->objs[mid].addr < addr) lo = mid + 1; else hi = mid;
    }
    txtb_objmemo *m = &s->objmemo[obj_hash(addr)];
    m->key = addr | (uint64_t)1 << 32;
    m->obj = lo < s->nobjs && s->objs[lo].addr == addr ? &s->objs[lo] : NULL;
    return m->obj;
}

/* The first object at addr (objs sorted by cmp_obj_addr), or NULL. A direct-mapped memo of the
 * answers, found or not (objs keeps its addresses after open), spares the binary search for the
 * addresses a trace repeats. */
static inline const txtb_obj *find_obj(txtb_state *s, uint32_t addr)
{
    const txtb_objmemo *m = &s->objmemo[obj_hash(addr)];
    if (m->key == (addr | (uint64_t)1 << 32)) return m->obj;
    return find_obj_slow(s, addr);
}

/* o's registry entry is of another kind than an object of generic type want (EVT_HOOK_OBJ_*; 0:
 * any) is registered with (txtb_hooks_entry_type): the registry keeps one entry per address, the
 * last registered, and an address may have held a task and then a semaphore (a FreeRTOS static
 * object in a reused stack buffer), or a binary semaphore and then a recursive mutex (a heap block
 * handed back), so such an entry names nothing. An entry of no type fits any. */
static inline int entry_other_kind(const txtb_obj *o, unsigned want)
{
    return want != 0u && o->type != TXTB_OBJ_NONE && o->type != txtb_hooks_entry_type((evt_hook_obj)want);
}

/* The writable registry thread behind o (find_obj's answer), or NULL when o is no thread's entry:
 * only its prio1 is written after open. */
static inline txtb_obj *thread_of(txtb_state *s, const txtb_obj *o)
{
    return o && o->type == TXTB_OBJ_THREAD ? &s->objs[o - s->objs] : NULL;
}

/* Registry priority of a thread slot whose reserved1 has bit 7 set: ThreadX writes
 * 0x80 | (priority >> 8) and priority & 0xFF; priorities are 10 bits (TraceX: (res1 & 3) << 8 | res2). */
static uint32_t reg_priority(const txtb_entry *o)
{
    return ((uint32_t)(o->res1 & 0x3u) << 8) | o->res2;
}

/* Name of an indexed object: from memory, or read from the file into the role's buffer (valid
 * until the next event). NULL if unreadable. */
static const char *obj_name(txtb_state *s, const txtb_obj *o, int role)
{
    if (!o) return NULL;
    if (o->name_off != TXTB_NAME_NONE) return s->names + o->name_off;
    txtb_entry e;
    return read_entry(s, o->index, &e, s->rolebuf[role]) ? s->rolebuf[role] : NULL;
}

/* The kept name of o when it may be vouched for, else NULL (text_ok.h). */
static const char *obj_name_ok(const txtb_state *s, const txtb_obj *o)
{
    return o && o->name_off != TXTB_NAME_NONE && o->name_ok ? s->names + o->name_off : NULL;
}

/* Name of the thread context ctx (NAME_CTX), *ok = it when vouched for (obj_name_ok); its object
 * in s->ctx_obj. The answer for the last context is kept unless its name was read from the file.
 * Only a thread's entry names a thread: the registry keeps one entry per address, the last
 * registered, and a FreeRTOS static semaphore or event group built where a task was (its stack
 * buffer reused) leaves its own entry there; the task is then unnamed, not called BINARY_SEM. */
static inline const char *ctx_named(txtb_state *s, uint32_t ctx, const char **ok)
{
    if (s->ctx_key != (ctx | (uint64_t)1 << 32)) {
        const txtb_obj *co = find_obj(s, ctx);
        if (co && entry_other_kind(co, EVT_HOOK_OBJ_THREAD)) co = NULL;
        s->ctx_obj = co;
        txtb_obj *ct = thread_of(s, co);
        s->ctx_prio1 = ct ? &ct->prio1 : &s->prio1_dummy;
        s->ctx_pw = ct ? &ct->pw : &s->pw_dummy;
        s->thr_give = ct ? &ct->give : &s->give_dummy;
        s->ctx_name = obj_name(s, co, NAME_CTX);
        s->ctx_ok = obj_name_ok(s, co);
        s->ctx_vbit = s->ctx_ok || !s->ctx_name ? EVT_TEXT_OK_CTX_NAME : 0u;
        s->ctx_key = !co || co->name_off != TXTB_NAME_NONE ? ctx | (uint64_t)1 << 32 : 0;
    }
    *ok = s->ctx_ok;
    return s->ctx_name;
}

/* Registry name of an object address, for txtb_hooks_dec_event() (want: txtb_hooks_name_fn's). */
static const char *hooks_obj_name(void *ctx, uint32_t addr, int want)
{
    txtb_state *s = ctx;
    const txtb_obj *o = find_obj(s, addr);
    if (o && entry_other_kind(o, (unsigned)want)) return NULL;
    return obj_name(s, o, NAME_HOOKS);
}

/* Keep a name in memory; TXTB_NAME_NONE when the names are at their limit (or memory is short). */
static uint32_t keep_name(txtb_state *s, const char *name, size_t n)
{
    if (s->names_len + n + 1 > TXTB_NAMES_MAX) return TXTB_NAME_NONE;
    if (s->names_len + n + 1 > s->names_cap) {
        size_t nc = s->names_cap ? s->names_cap : 4096;
        while (nc < s->names_len + n + 1) nc *= 2;
        if (nc > TXTB_NAMES_MAX) nc = TXTB_NAMES_MAX;
        char *v = evt_realloc(s->names, nc);
        if (!v) return TXTB_NAME_NONE;
        s->names = v;
        s->names_cap = nc;
    }
    uint32_t off = (uint32_t)s->names_len;
    memcpy(s->names + off, name, n + 1);
    s->names_len += n + 1;
    return off;
}

/* One pass over the registry in place: index the used entries (bounded), tell the hooks decoder. */
static evt_status read_registry(txtb_state *s)
{
    evt_reader *r = s->r;
    uint32_t cap = 0;
    int over = 0;
    uint64_t limit = TXTB_REG_READ_MAX / s->reg_entry_size;
    if (s->reg_present > limit) {
        evt_reader_error(r, s->reg_off + limit * s->reg_entry_size,
                         "registry of %" PRIu32 " entries (%" PRIu64 " bytes) is larger than the %u bytes read (limit): entries from slot %" PRIu64 " on are not read (their objects stay unnamed)",
                         s->reg_entries, (uint64_t)s->reg_entries * s->reg_entry_size, TXTB_REG_READ_MAX, limit);
        s->reg_present = (uint32_t)limit;
    }
    for (uint32_t i = 0; i < s->reg_present; i++) {
        /* fast skip of unused entries (a huge zero-filled registry) */
        uint64_t off = s->reg_off + (uint64_t)i * s->reg_entry_size;
        const uint8_t *p = win_at(s, &s->rwin, off, s->reg_entry_size);
        evt_cur c;
        evt_cur_init(&c, p, p ? s->reg_entry_size : 0, off, s->big);
        evt_cur_skip(&c, TXTB_REG_TYPE);
        if (evt_cur_u8(&c) == TXTB_OBJ_NONE && evt_cur_ok(&c)) continue;
        txtb_entry e;
        if (!read_entry(s, i, &e, s->nobjs < TXTB_MAX_OBJS ? s->rolebuf[NAME_CTX] : NULL))
            return evt_reader_fail(r, EVT_ERR_IO, off, "registry entry %" PRIu32 " unreadable", i);
        txtb_hooks_dec_registry(&s->hooks, e.type, e.addr, e.param1, e.param2);
        if (s->nobjs == TXTB_MAX_OBJS) {
            s->objs_over = 1;
            if (!over++)
                evt_reader_error(r, s->reg_off + (uint64_t)i * s->reg_entry_size,
                                 "registry has more than %u used entries (limit): entries from slot %" PRIu32 " on are not indexed (their objects stay unnamed)",
                                 TXTB_MAX_OBJS, i);
            continue;
        }
        if (s->nobjs == cap) {
            uint32_t nc = cap ? cap * 2 : 64;
            txtb_obj *v = evt_realloc(s->objs, (size_t)nc * sizeof *v);
            if (!v) return evt_reader_fail(r, EVT_ERR_NOMEM, s->reg_off, "out of memory for %" PRIu32 " registry objects", nc);
            s->objs = v;
            cap = nc;
        }
        txtb_obj *o = &s->objs[s->nobjs++];
        o->addr = e.addr;
        o->index = i;
        o->available = e.available;
        o->type = e.type;
        o->param1 = e.param1;
        o->param2 = e.param2;
        o->name_off = keep_name(s, s->rolebuf[NAME_CTX], e.name_len);
        o->name_ok = (uint8_t)(o->name_off != TXTB_NAME_NONE && evt_text_ok(s->names + o->name_off));
        o->prio1 = (uint16_t)(e.type == TXTB_OBJ_THREAD && (e.res1 & TXTB_REG_PRIO_PRESENT) ? reg_priority(&e) + 1u : 0u);
        o->user1 = o->inh1 = 0; /* the registry's priority may be an inherited one */
        o->pgen = 0;
        o->give = 0;            /* generation 0, nothing open (forget_lost) */
        o->rdy = TXTB_RDY_UNKNOWN; /* on a ready list or not: its records say (ready_case) */
        o->eqt = TXTB_EQT_UNKNOWN;
        o->pw = 0;
        o->ahead_to = 0;
    }
    if (s->nobjs > 1) qsort(s->objs, s->nobjs, sizeof *s->objs, cmp_obj_addr); /* objs is NULL when empty */
    return EVT_OK;
}

/* Modulus of the masked counter: the power of two above the mask's highest bit (a mask is
 * normally 2^k - 1; a mask with low bits clear, e.g. 0xFFF0, still counts modulo 2^16). */
static uint64_t ts_modulus(uint32_t mask)
{
    uint64_t mod = 1;
    while (mod <= mask) mod <<= 1;
    return mod;
}

/* A masked timestamp m turned to count up: m, or -m (mod 2^32) when the timer counts down; its
 * own inverse. The step from one to the next in the counting direction is then (x - prev) & ts_low
 * either way (ts_mod is a power of two: the difference modulo ts_mod is its low bits). */
static inline uint32_t ts_dir(const txtb_state *s, uint32_t m)
{
    return (m ^ s->ts_neg) - s->ts_neg;
}

/* The direction scan's running state: the last written slot's masked timestamp (have: one was
 * seen) and the steps up and down so far. */
typedef struct txtb_dirscan {
    uint32_t prev;
    int have;
    uint64_t up, down;
} txtb_dirscan;

/* Timer steps among the n adjacent slots of run (in byte order big) into d. A step is the masked
 * difference modulo ts_mod: 0 is none, below half up, else down. */
static inline void scan_steps(const txtb_state *s, const uint8_t *run, uint32_t n, int big, txtb_dirscan *d)
{
    const uint32_t mask = s->mask, low = s->ts_low;
    const uint64_t half = s->ts_mod / 2;
    txtb_dirscan v = *d; /* in registers for the loop */
    const uint8_t *slot = run;
    for (uint32_t j = 0; j < n; j++, slot += TXTB_EVENT_SIZE) {
        if (slot_ctx(slot, big) == TXTB_CTX_NONE) continue;
        uint32_t m = slot_ts(slot, big) & mask;
        if (v.have) {
            uint32_t step = (m - v.prev) & low;
            if (step) {
                if (step < half) v.up++; else v.down++;
            }
        }
        v.prev = m;
        v.have = 1;
    }
    *d = v;
}

/* First pass: direction of the timer (TraceX's rule: whichever way most steps go), decided on
 * the first TXTB_DIR_SCAN slots in time order so that a huge buffer is read once, not twice. Only
 * the context (written or not) and timestamp words are read, a run of adjacent slots at a time. */
static void scan_direction(txtb_state *s)
{
    txtb_dirscan d = {0, 0, 0, 0};
    uint32_t n = s->span < TXTB_DIR_SCAN ? s->span : TXTB_DIR_SCAN;
    for (uint32_t k = 0; k < n;) {
        uint32_t idx = slot_index_of(s, k);
        const uint8_t *p = slot_at(s, idx);
        if (!p) { k++; continue; }
        /* slots idx.. adjacent in time order and all in the window (slot_at: idx is) */
        uint32_t run = (k < s->seg1 ? s->seg1 : n) - k;
        if (run > n - k) run = n - k;
        if (run > s->ewin_first + s->ewin_slots - idx) run = s->ewin_first + s->ewin_slots - idx;
        if (s->big) scan_steps(s, p, run, 1, &d); /* one loop per byte order */
        else scan_steps(s, p, run, 0, &d);
        k += run;
    }
    s->increases = d.up;
    s->decreases = d.down;
    s->timer_down = s->decreases > s->increases;
    /* the first event's step from prev_dir is its ts: m counting up, mask - m counting down */
    s->ts_neg = s->timer_down ? UINT32_MAX : 0u;
    s->prev_dir = s->timer_down ? 0u - s->mask : 0u;
    s->ts = 0;
}

TXTB_COLD static void user_sites_first(txtb_state *s);
TXTB_COLD static void forget_lost(txtb_state *s);

static evt_status open_(evt_reader *r, void **state)
{
    uint8_t h[TXTB_HEADER_SIZE];
    size_t got = evt_source_read_at(&r->src, 0, h, sizeof h);
    if (got < 4) return evt_reader_fail(r, EVT_ERR_TRUNCATED, got, "file too short for a TXTB header (%zu bytes)", got);
    int big;
    evt_cur ic;
    evt_cur_init(&ic, h, got, 0, 1);
    if (evt_cur_u32be_at(&ic, 0) == TXTB_ID) big = 1;
    else if (evt_cur_u32le_at(&ic, 0) == TXTB_ID) big = 0;
    else return evt_reader_fail(r, EVT_ERR_FORMAT, 0, "no TXTB trace id (expected 54 58 54 42 or 42 54 58 54)");
    if (got < sizeof h)
        return evt_reader_fail(r, EVT_ERR_TRUNCATED, got, "control header truncated: %zu of %u bytes", got, TXTB_HEADER_SIZE);

    txtb_state *s = evt_calloc(1, sizeof *s);
    if (!s) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    *state = s;
    s->r = r;
    s->big = big;
    s->exec = TXTB_EXEC_UNKNOWN; /* the records before the buffer's first may have changed it */
    if (!(s->user = evt_user_dec_new()) || !(s->idm = evt_calloc(TXTB_IDM_N, sizeof *s->idm)))
        return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    const char *elf = evt_opts_get(r->opts, "elf");
    if (elf) {
        char err[256];
        if (evt_user_dec_load_elf(s->user, elf, err, sizeof err) != 0)
            return evt_reader_fail(r, EVT_ERR_USAGE, 0, "--elf: %s", err);
    }
    evt_cur c;
    evt_cur_init(&c, h, sizeof h, 0, big);
    for (int i = 0; i < 12; i++) s->hdr[i] = evt_cur_u32(&c);
    evt_cur_at(&c, TXTB_HDR_RESERVED1);
    /* reserved1: evtrace's recorder counts the registrations it lost there, low byte first in
     * either byte order (txtb_defs.h); ThreadX writes 0 */
    uint8_t lost_lo = evt_cur_u8(&c);
    s->reserved1 = (uint16_t)(lost_lo | evt_cur_u8(&c) << 8);
    s->name_size = evt_cur_u16(&c);  /* TXTB_HDR_NAME_SIZE */
    s->mask = s->hdr[TXTB_HDR_TIMER_MASK / 4];
    s->ts_mod = ts_modulus(s->mask);
    s->ts_low = (uint32_t)(s->ts_mod - 1);
    s->kp_kernel = INT_MIN;
    for (uint32_t i = 0; i < TXTB_STM_N; i++) s->stm_name[i] = txtb_thread_state_name(i);
    uint32_t base = s->hdr[TXTB_HDR_BASE / 4];
    /* Addresses are 32-bit target addresses (64-bit hosts truncate): offsets modulo 2^32. */
    uint32_t reg_start = s->hdr[TXTB_HDR_REG_START / 4] - base;
    uint32_t reg_end = s->hdr[TXTB_HDR_REG_END / 4] - base;
    uint32_t buf_start = s->hdr[TXTB_HDR_BUF_START / 4] - base;
    uint32_t buf_end = s->hdr[TXTB_HDR_BUF_END / 4] - base;
    uint32_t cur = s->hdr[TXTB_HDR_CURRENT / 4] - base;
    uint64_t fsize = r->src.size;
    s->reg_entry_size = TXTB_REG_FIXED_SIZE + s->name_size;

    if (reg_start < TXTB_HEADER_SIZE || reg_start > fsize)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_REG_START, "registry start 0x%08" PRIx32 " is offset %" PRIu32 ", outside the file (%" PRIu64 " bytes)", s->hdr[3], reg_start, fsize);
    if (reg_end < reg_start || (reg_end - reg_start) % s->reg_entry_size != 0)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_REG_END, "registry end 0x%08" PRIx32 " does not close a whole number of %u-byte entries from registry start", s->hdr[5], s->reg_entry_size);
    if (buf_start < reg_end)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_BUF_START, "event buffer start (offset %" PRIu32 ") lies inside the registry (ends at %" PRIu32 ")", buf_start, reg_end);
    if (buf_end <= buf_start || (buf_end - buf_start) % TXTB_EVENT_SIZE != 0)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_BUF_END, "event buffer end (offset %" PRIu32 ") is not start + a positive multiple of %u", buf_end, TXTB_EVENT_SIZE);
    if (cur < buf_start || cur >= buf_end || (cur - buf_start) % TXTB_EVENT_SIZE != 0)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_CURRENT, "current pointer 0x%08" PRIx32 " (offset %" PRIu32 ") is not a slot of the event buffer [%" PRIu32 ", %" PRIu32 ")", s->hdr[8], cur, buf_start, buf_end);
    s->reg_off = reg_start;
    s->reg_entries = (reg_end - reg_start) / s->reg_entry_size;
    s->ev_off = buf_start;
    s->capacity = (buf_end - buf_start) / TXTB_EVENT_SIZE;
    s->current = (cur - buf_start) / TXTB_EVENT_SIZE;
    /* A file shorter than the buffer end (a partial dump): decode what is there. */
    s->reg_present = reg_end <= fsize ? s->reg_entries : (uint32_t)((fsize - reg_start) / s->reg_entry_size);
    s->avail = buf_end <= fsize ? s->capacity : fsize <= buf_start ? 0 : (uint32_t)((fsize - buf_start) / TXTB_EVENT_SIZE);
    if (buf_end > fsize)
        evt_reader_error(r, fsize, "file truncated at offset %" PRIu64 ": the event buffer ends at offset %" PRIu32
                         " (header); %" PRIu32 " of %" PRIu32 " registry entries and %" PRIu32 " of %" PRIu32 " event slots are present and decoded",
                         fsize, buf_end, s->reg_present, s->reg_entries, s->avail, s->capacity);
    /* ThreadX lays the three areas end to end (registry at base + 48, slots at the registry's
     * end): bytes between them are a damaged pointer, or slots or entries the read passes over */
    if (reg_start != TXTB_HEADER_SIZE)
        evt_reader_error(r, TXTB_HDR_REG_START, "registry start (offset %" PRIu32 ") is not right after the %u-byte header: the %" PRIu32
                         " bytes between them are not decoded", reg_start, TXTB_HEADER_SIZE, reg_start - TXTB_HEADER_SIZE);
    if (buf_start != reg_end)
        evt_reader_error(r, TXTB_HDR_BUF_START, "event buffer start (offset %" PRIu32 ") is not the registry end (offset %" PRIu32 "): the %" PRIu32
                         " bytes between them are not decoded", buf_start, reg_end, buf_start - reg_end);
    if (s->mask == 0) evt_reader_error(r, TXTB_HDR_TIMER_MASK, "timer valid mask is 0: timestamps carry no information");

    if (!win_init(&s->rwin, s->reg_entry_size > TXTB_WIN ? s->reg_entry_size : TXTB_WIN) || !win_init(&s->ewin, TXTB_WIN))
        return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    for (int i = 0; i < NAME_ROLES; i++)
        if (!(s->rolebuf[i] = evt_malloc((size_t)s->name_size + 1))) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    evt_status st = read_registry(s);
    if (s->hooks.clock_hz && !s->r->clock_hz) s->r->clock_hz = s->hooks.clock_hz; /* the hooks' clock entry */
    s->r->names_lost = s->reserved1; /* registrations the recorder could not write (txtb_defs.h) */
    if (st != EVT_OK) return st;
    /* every TXTB buffer records scheduling, interrupts, services on objects and user events; its
     * kernel is the hooks' profile (registry) or ThreadX's own */
    r->caps = EVT_CAP_SCHED | EVT_CAP_ISR | EVT_CAP_SERVICES | EVT_CAP_OBJECTS | EVT_CAP_USER;
    r->caps_known = 1;
    r->kernel = s->hooks.active ? (int)s->hooks.kernel : EVT_HOOK_KERNEL_THREADX;
    uint32_t w[8];
    if (s->current < s->avail) {
        if (!read_slot(s, s->current, w)) return evt_reader_fail(r, EVT_ERR_IO, s->ev_off + (uint64_t)s->current * TXTB_EVENT_SIZE, "event slot unreadable");
        s->wrapped = (w[0] != TXTB_CTX_NONE);
    } /* else the current slot is missing: the slots present all lie before it, oldest first */
    s->seg1 = s->wrapped ? s->avail - s->current : 0;
    s->span = s->wrapped ? s->avail : (s->current < s->avail ? s->current : s->avail);
    s->ahead_left = (uint64_t)TXTB_AHEAD_BUDGET * s->span + TXTB_AHEAD_SLOTS;
    /* The written slots a truncated file lacks: all past the file when wrapped (between the
     * oldest run and slot 0 in time), else those before the current slot (the newest, at the end;
     * a wrap the missing current slot would have shown is not counted). */
    if (s->avail < s->capacity && (s->wrapped || s->current > s->avail)) {
        s->cut_lost = s->wrapped ? s->capacity - s->avail : s->current - s->avail;
        s->cut_pos = s->wrapped ? s->seg1 : s->span;
    }
    scan_direction(s);
    if (s->wrapped) forget_lost(s); /* its oldest records' services were overwritten: gives of
                                       generation 0 are not known */
    if (s->wrapped && s->user) user_sites_first(s);
    return EVT_OK;
}

/* The slot of id in a counts table of cap slots (a power of two) that holds it. */
static uint32_t count_slot(const id_count *v, uint32_t cap, uint32_t id)
{
    uint32_t k = (id * 2654435761u) & (cap - 1);
    while (v[k].id != id || !v[k].count) k = (k + 1) & (cap - 1);
    return k;
}

/* Re-point the id meanings' counters (txtb_idm.cnt) from the counts table being replaced into v
 * (cap slots), which holds all of its entries. */
static void count_repoint(txtb_state *s, id_count *v, uint32_t cap)
{
    for (uint32_t i = 0; i < TXTB_IDM_N + 2u; i++) {
        txtb_idm *e = i < TXTB_IDM_N ? &s->idm[i] : &s->idm190[i - TXTB_IDM_N];
        if (e->cnt) e->cnt = &v[count_slot(v, cap, e->cnt->id)];
    }
}

/* count_by_id: open addressing by id (load < 1/2), at most TXTB_MAX_IDS distinct ids. Returns the
 * id's slot in counts (valid until the table is rebuilt, when count_repoint moves the
 * txtb_idm.cnt that point into it), UINT32_MAX when it was counted as untracked. */
static uint32_t count_id(txtb_state *s, uint32_t id)
{
    if (s->ccap) {
        for (uint32_t k = (id * 2654435761u) & (s->ccap - 1); s->counts[k].count; k = (k + 1) & (s->ccap - 1))
            if (s->counts[k].id == id) { s->counts[k].count++; return k; }
    }
    if (s->ncounts >= TXTB_MAX_IDS) { s->untracked_ids++; return UINT32_MAX; }
    if (2 * (s->ncounts + 1) >= s->ccap) {
        uint32_t nc = s->ccap ? s->ccap * 2 : 64;
        id_count *v = evt_calloc(nc, sizeof *v);
        if (!v) { s->untracked_ids++; return UINT32_MAX; } /* counts are informational; events still decode */
        for (uint32_t i = 0; i < s->ccap; i++) {
            if (!s->counts[i].count) continue;
            uint32_t k = (s->counts[i].id * 2654435761u) & (nc - 1);
            while (v[k].count) k = (k + 1) & (nc - 1);
            v[k] = s->counts[i];
        }
        count_repoint(s, v, nc);
        evt_free(s->counts);
        s->counts = v;
        s->ccap = nc;
    }
    uint32_t k = (id * 2654435761u) & (s->ccap - 1);
    while (s->counts[k].count) k = (k + 1) & (s->ccap - 1);
    s->counts[k].id = id;
    s->counts[k].count = 1;
    s->ncounts++;
    return k;
}

/* SMP builds put the core in bits 24-31 of a kernel event id (not of a user event's): 1 when raw
 * carries one (the id is raw & 0xFFFFFF). */
static inline int id_has_core(uint32_t raw)
{
    return (raw >> 24) != 0 && (raw & 0xFFFFFFu) < TXTB_USER_EVENT_START;
}

/* Roles of info 1..4 of a ThreadX event (txtb_defs.h TXTB_INFO_ROLE_TABLE), or NULL. */
static const uint8_t *info_roles(uint32_t id)
{
    switch (id) {
#define TXTB_ROLE_CASE_(name, r1, r2, r3, r4)                                                      \
    case TXTB_EVENT_##name: {                                                                     \
        static const uint8_t v[4] = {TXTB_R_##r1, TXTB_R_##r2, TXTB_R_##r3, TXTB_R_##r4};        \
        return v;                                                                                 \
    }
        TXTB_INFO_ROLE_TABLE(TXTB_ROLE_CASE_)
#undef TXTB_ROLE_CASE_
    default: return NULL;
    }
}

static const char *const k_role_field[TXTB_R_COUNT_] = {
#define TXTB_ROLE_NAME_(r, name) name,
    TXTB_ROLE_TABLE(TXTB_ROLE_NAME_)
#undef TXTB_ROLE_NAME_
};

/* A role's level in the meaning block (level order = EVT_LEVEL_TABLE's): the object's counters. */
static const struct { uint8_t role, level; } k_levels[] = {
    {TXTB_R_ENQUEUED, EVT_LEVEL_DEPTH}, {TXTB_R_SEM_COUNT, EVT_LEVEL_COUNT},
    {TXTB_R_AVAILABLE, EVT_LEVEL_AVAILABLE}, {TXTB_R_FLAGS, EVT_LEVEL_FLAGS},
    {TXTB_R_SUSPENDED, EVT_LEVEL_WAITERS},
};

/* What add_role_fields() sets for an id with these roles (NULL: none), in its order, into e:
 * the fields in info order, the levels in k_levels order then info order (the first
 * EVT_M_MAX_LEVELS: no level is set before them). */
static void role_plan(txtb_idm *e, const uint8_t *roles)
{
    e->roles = roles;
    if (!roles) return;
    for (int i = 0; i < 4; i++) {
        uint8_t ro = roles[i];
        if (ro == TXTB_R_NONE) continue;
        e->put_key[e->nput] = k_role_field[ro];
        e->put_w[e->nput++] = (uint8_t)i;
        e->stk |= ro == TXTB_R_STK;
        if (ro == TXTB_R_OWNER || ro == TXTB_R_OWNERSHIP_COUNT || ro == TXTB_R_STK || ro == TXTB_R_STACK_START ||
            ro == TXTB_R_STACK_SIZE || ro == TXTB_R_NEXT || ro == TXTB_R_NEW_PRIO) {
            e->mrole[e->nmrole] = ro;
            e->mrole_w[e->nmrole++] = (uint8_t)i;
        }
    }
    e->put_ok = (uint8_t)((1u << e->nput) - 1u);
    for (size_t k = 0; k < sizeof k_levels / sizeof k_levels[0]; k++)
        for (int i = 0; i < 4; i++)
            if (roles[i] == k_levels[k].role && e->nlevel < EVT_M_MAX_LEVELS) { /* past it: dropped, as evt_put_level does */
                e->level_kind[e->nlevel] = k_levels[k].level;
                e->level_w[e->nlevel++] = (uint8_t)i;
            }
}

static uint8_t dsusp_role(uint32_t id)
{
    switch (id) {
    case TXTB_EVENT_THREAD_SUSPEND_API: return TXTB_DS_SET;
    case TXTB_EVENT_THREAD_RESUME_API:
    case TXTB_EVENT_THREAD_DELETE: return TXTB_DS_CLEAR;
    case TXTB_EVENT_THREAD_TERMINATE: return TXTB_DS_TERMINATE;
    case TXTB_EVENT_THREAD_RESET: return TXTB_DS_RESET;
    case TXTB_EVENT_THREAD_RESUME: return TXTB_DS_RESUME;
    default: return TXTB_DS_NONE;
    }
}

/* The give a service record leaves (TXTB_GV_*): the wait state whose waiters it resumes. */
static uint8_t give_of(uint32_t id)
{
    switch (id) {
    case TXTB_EVENT_QUEUE_SEND:
    case TXTB_EVENT_QUEUE_FRONT_SEND:
    case TXTB_EVENT_QUEUE_RECEIVE: return TXTB_STATE_QUEUE_SUSP; /* a receive resumes a blocked sender */
    case TXTB_EVENT_QUEUE_FLUSH: return TXTB_STATE_QUEUE_SUSP | TXTB_GV_MANY;
    case TXTB_EVENT_SEMAPHORE_PUT:
    case TXTB_EVENT_SEMAPHORE_CEILING_PUT: return TXTB_STATE_SEMAPHORE_SUSP;
    case TXTB_EVENT_EVENT_FLAGS_SET: return TXTB_STATE_EVENT_FLAG | TXTB_GV_MANY;
    case TXTB_EVENT_BLOCK_RELEASE: return TXTB_STATE_BLOCK_MEMORY;
    case TXTB_EVENT_BYTE_RELEASE: return TXTB_STATE_BYTE_MEMORY | TXTB_GV_MANY;
    case TXTB_EVENT_MUTEX_PUT: return TXTB_STATE_MUTEX_SUSP;
    case TXTB_EVENT_QUEUE_DELETE: return TXTB_STATE_QUEUE_SUSP | TXTB_GV_MANY | TXTB_GV_DELETED;
    case TXTB_EVENT_SEMAPHORE_DELETE: return TXTB_STATE_SEMAPHORE_SUSP | TXTB_GV_MANY | TXTB_GV_DELETED;
    case TXTB_EVENT_EVENT_FLAGS_DELETE: return TXTB_STATE_EVENT_FLAG | TXTB_GV_MANY | TXTB_GV_DELETED;
    case TXTB_EVENT_BLOCK_POOL_DELETE: return TXTB_STATE_BLOCK_MEMORY | TXTB_GV_MANY | TXTB_GV_DELETED;
    case TXTB_EVENT_BYTE_POOL_DELETE: return TXTB_STATE_BYTE_MEMORY | TXTB_GV_MANY | TXTB_GV_DELETED;
    case TXTB_EVENT_MUTEX_DELETE: return TXTB_STATE_MUTEX_SUSP | TXTB_GV_MANY | TXTB_GV_DELETED;
    case TXTB_EVENT_THREAD_WAIT_ABORT: return TXTB_GV_ABORT;
    default: return 0;
    }
}

static evt_kind kind_of(int k)
{
    switch (k) {
    case TXTB_K_RUN: return EVT_KIND_THREAD_RUN;
    case TXTB_K_STOP: return EVT_KIND_THREAD_STOP;
    case TXTB_K_ISR_IN: return EVT_KIND_ISR_ENTER;
    case TXTB_K_ISR_OUT: return EVT_KIND_ISR_EXIT;
    case TXTB_K_SVC: return EVT_KIND_SVC;
    case TXTB_K_CREATE: return EVT_KIND_OBJ_CREATE;
    case TXTB_K_DELETE: return EVT_KIND_OBJ_DELETE;
    case TXTB_K_MARKER: return EVT_KIND_MARKER;
    case TXTB_K_LOST: return EVT_KIND_LOST;
    default: return EVT_KIND_OTHER;
    }
}

/* Slots after the current pointer of a buffer that did not wrap must be unwritten. */
TXTB_COLD static void check_beyond(txtb_state *s)
{
    uint32_t w[8];
    s->beyond_checked = 1;
    if (s->wrapped) return;
    for (uint32_t i = s->current + 1; i < s->avail; i++) {
        if (read_slot(s, i, w) && w[0] != TXTB_CTX_NONE) {
            evt_reader_error(s->r, s->ev_off + (uint64_t)i * TXTB_EVENT_SIZE,
                             "slot %" PRIu32 " is written but lies after the current pointer (slot %" PRIu32 ") of a buffer that did not wrap",
                             i, s->current);
            return;
        }
    }
}

/* An evtrace/user.h record (ids and layout: evtrace/user_defs.h): the first slot's words, then its
 * continuation slots, which follow it in time order (read and consumed here), decoded by the user
 * decoder into ev. A continuation slot met first lost its head to a wrap (the LOST record counts
 * that slot): at the oldest position of a buffer with user.h records it is not shown (user_torn),
 * elsewhere it stays a plain user event. */
/* A user record's n words into s->uwords: the first slot's infos w[4..8), then those of the
 * continuation slots at time positions at, at + 1, ... (read, not consumed). Returns the words
 * gathered (fewer than n: cut short, the decoder reports the missing ones). */
static uint32_t user_words(txtb_state *s, const uint32_t w[8], uint32_t n, uint32_t at)
{
    uint32_t got = n < 4u ? n : 4u;
    memcpy(s->uwords, w + 4, 4 * sizeof w[0]);
    for (uint32_t j = 1; 4u * j < n; j++, at++) {
        uint32_t c[8];
        if (at >= s->span || !read_slot(s, slot_index_of(s, at), c) || c[0] == TXTB_CTX_NONE ||
            c[2] != (EVT_USER_TXTB_CONT | (j & 0x3FFu)))
            break;
        for (uint32_t i = 0; i < 4u && 4u * j + i < n; i++) s->uwords[4u * j + i] = c[4 + i];
        got = 4u * j + 4u < n ? 4u * j + 4u : n;
    }
    return got;
}

/* A continuation slot at the oldest time position of a wrapped buffer that holds user.h records
 * (user_sites: the application keeps its own user ids below 61440, docs/user-events.md): the wrap
 * overwrote the first slot of its record, which the recorder counted among its overwritten slots.
 * What is left of the record cannot be decoded; it is not shown as events. The run of such slots
 * (consecutive continuation numbers, the same context and timestamp: one record's) is consumed
 * here and counted in `torn` (info's torn_user_slots); they stay among the valid entries, so the
 * slot counts compared with the recorder's do not change. Returns whether the slot was such a one. */
TXTB_COLD static int user_torn(txtb_state *s, uint32_t id, const uint32_t w[8])
{
    if (!s->wrapped || !s->user_sites || s->pos - 1u != s->torn || (id & 0x3FFu) == 0u) return 0;
    s->run_left = 0; /* read_slot below may move the window, and pos moves */
    uint32_t n = 1;
    for (uint32_t c[8]; s->pos < s->span; s->pos++, n++)
        if (!read_slot(s, slot_index_of(s, s->pos), c) || c[0] != w[0] || c[3] != w[3] ||
            c[2] != (EVT_USER_TXTB_CONT | ((id + n) & 0x3FFu)))
            break;
    s->valid += n - 1u;
    s->torn += n;
    return 1;
}

/* Returns 0 when the slot is not to be shown (user_torn), else 1. */
TXTB_COLD static int user_record(txtb_state *s, uint32_t id, const uint32_t w[8], uint64_t off, evt_event *ev)
{
    /* Ids 61440..65535 are ThreadX user ids an application may use too (TX_TRACE_USER_EVENT_END is
     * 65535): a slot is taken as an evtrace/user.h record only when it reads as one (evt_user_dec_claims),
     * else it stays the plain user event it was decoded as. */
    if (id >= EVT_USER_TXTB_CONT) return !user_torn(s, id, w);
    unsigned rec = (id >> 10) & 3u;
    uint32_t n = id & 0x3FFu, got = n < 4u ? n : 4u;
    if (!s->user || !evt_user_dec_claims(s->user, rec, w + 4, got, n)) return 1;
    s->run_left = 0; /* read_slot below may move the window, and pos moves */
    got = user_words(s, w, n, s->pos);
    uint32_t cont = got > 4u ? (got - 1u) / 4u : 0u; /* continuation slots read: consumed */
    s->pos += cont;
    s->valid += cont;
    ev->nargs = 0;
    uint64_t doff = off;
    /* A call of a site no SITE record of a wrapped buffer names (user_sites_first read them all):
     * its SITE record went with a wrap, counted lost there. It shows its raw words, no data error. */
    int site_lost = s->wrapped && rec == EVT_USER_R_CALL && got >= 1 && !evt_user_dec_site_known(s->user, s->uwords[0]);
    const char *diag = s->user ? evt_user_dec_record(s->user, rec, s->uwords, got, off, ev, &doff) : "out of memory";
    if (site_lost && diag && got == n) diag = NULL;
    if (!diag && got < n) {
        evt_reader_error(s->r, off, "user record of %" PRIu32 " words: only %" PRIu32 " in consecutive slots", n, got);
    } else if (diag) {
        /* word i of the record lies in slot i / 4, info (i % 4) + 1 */
        uint64_t wi = doff > off ? (doff - off) / 4u : 0u;
        uint64_t at = off + (wi / 4u) * TXTB_EVENT_SIZE + TXTB_EV_INFO1 + (wi % 4u) * 4u;
        evt_reader_error(s->r, at, "%s%s", diag, got < n ? " (record cut short)" : "");
    }
    return 1;
}

/* A wrapped buffer's oldest records may be calls of sites whose SITE (or ANCHOR) record the wrap
 * overwrote; a recorder that calls evt_user_resend from its buffer-full callback (docs/user-events.md)
 * registers them again after the wrap, later in the buffer. So the SITE and ANCHOR records of a
 * wrapped buffer are read once, in time order, before its first event: such a call then decodes
 * with its site (a buffer holds one session: one build, one address per site). Their diagnostics
 * come when they are decoded in order (user_record); here they are ignored. Open only. */
TXTB_COLD static void user_sites_first(txtb_state *s)
{
    evt_event scratch;
    for (uint32_t at = 0; at < s->span; at++) {
        uint32_t w[8];
        if (!read_slot(s, slot_index_of(s, at), w) || w[0] == TXTB_CTX_NONE) continue;
        uint32_t id = w[2], n = id & 0x3FFu, got = n < 4u ? n : 4u;
        unsigned rec = (id >> 10) & 3u;
        if (id < EVT_USER_TXTB_BASE || id >= EVT_USER_TXTB_CONT || (rec != EVT_USER_R_SITE && rec != EVT_USER_R_ANCHOR) ||
            !evt_user_dec_claims(s->user, rec, w + 4, got, n))
            continue;
        s->user_sites = 1;
        if ((got = user_words(s, w, n, at + 1)) < n) continue; /* cut short: reported in order */
        uint64_t doff;
        evt_event_reset(&scratch);
        (void)evt_user_dec_record(s->user, rec, s->uwords, got, 0, &scratch, &doff);
    }
}

/* The kernel profile decoded with (evt_reader_profile), looked up again only when the user's
 * choice of kernel changes (--kernel, evt_reader_set_kernel: r->kernel_user; r->kernel is this
 * reader's, set at open): then the cached meanings are stale. */
static inline const evt_kernel_profile *profile(txtb_state *s)
{
    if (s->r->kernel_user != s->kp_kernel) { /* kp_kernel starts as none (open_) */
        s->kp = evt_reader_profile(s->r);
        s->kp_kernel = s->r->kernel_user;
        s->gen++;
        s->hooks.profile = s->kp;
        for (uint32_t i = 0; i < TXTB_IDM_N; i++) s->idm[i].key = 0;
        s->idm190[0].key = s->idm190[1].key = 0;
    }
    return s->kp;
}

/* A suspend state's meaning (evt_kernel_meaning_state), cached per state below TXTB_STM_N. */
static void stop_meaning(txtb_state *s, const evt_kernel_profile *kp, uint32_t st, evt_meaning *m)
{
    if (st >= TXTB_STM_N) { (void)evt_kernel_meaning_state(kp, st, m); return; }
    if (s->stm_gen[st] != s->gen) {
        evt_meaning t;
        memset(&t, 0, sizeof t);
        (void)evt_kernel_meaning_state(kp, st, &t);
        s->stm_has[st] = t.has;
        s->stm_stop[st] = t.stop_state;
        s->stm_gen[st] = s->gen;
    }
    m->has |= s->stm_has[st];
    if (s->stm_has[st] & EVT_M_STOP_STATE) m->stop_state = s->stm_stop[st];
}

/* What the records show of the figures ThreadX writes whenever they happen (evt_reader.counts).
 * ThreadX tests one filter bit for a record's whole category (tx_trace.h): its scheduler's records
 * (THREAD_RESUME, THREAD_SUSPEND, TIME_SLICE: the internal category) mean that every time slice's
 * end is written; with a thread service's record too (the thread category, which holds
 * THREAD_RELINQUISH and THREAD_PREEMPTION_CHANGE), every yield and preemption. All only where a
 * resume's info4 is the execute pointer after it (ThreadX 6 writes it back into the record; some
 * resume then names its own thread): the older kernels of TraceX's demo traces write the one
 * before, which says no preemption, and their other records may differ too. An SMP kernel's ids
 * (a core in them) say none: slice_case leaves its TIME_SLICE alone. Nor every preemption once a
 * record may have made one that the reader cannot tell (preempt_unknown: pchange_case, a resume
 * before the execute pointer is known). evtrace's hooks write the scheduler's ids with none of
 * this (decode_slot sees a resume name its own thread only without them). */
TXTB_COLD static void counts_update(txtb_state *s)
{
    unsigned k = 0;
    if (s->seen_sched && s->seen_next_self && !s->seen_cpu) {
        k = EVT_COUNTS_TIME_SLICES;
        if (s->seen_thread_api) k |= EVT_COUNTS_YIELDS | (s->preempt_unknown ? 0u : EVT_COUNTS_PREEMPTIONS);
    }
    s->r->counts = k;
}

/* A resume named its own thread as the execute pointer after it (counts_update). */
TXTB_COLD static void next_self(txtb_state *s)
{
    s->seen_next_self = 1;
    counts_update(s);
}

/* A record may have preempted a thread and the reader cannot tell (counts_update). */
TXTB_COLD static void preempt_not_known(txtb_state *s)
{
    s->preempt_unknown = 1;
    counts_update(s);
}

/* counts_update's facts from entry e for an id word, once per id word (idm_build). */
TXTB_COLD static void note_counts(txtb_state *s, const txtb_idm *e, const txtb_event_info *info)
{
    if (e->has_cpu) s->seen_cpu = 1;
    else if (e->id == TXTB_EVENT_THREAD_RESUME || e->id == TXTB_EVENT_THREAD_SUSPEND || e->id == TXTB_EVENT_TIME_SLICE)
        s->seen_sched = 1;
    else if (info && (info->filter & TXTB_F_THREAD)) s->seen_thread_api = 1;
    counts_update(s);
}

/* Work out entry e for id word raw (not_lost: an id 190 without the LOST marker) and key. The
 * entry is kept (e->key = key) unless its name is the per-event namebuf (names out of memory). */
TXTB_COLD static const txtb_idm *idm_build(txtb_state *s, txtb_idm *e, uint32_t raw, int not_lost, uint64_t key)
{
    const evt_kernel_profile *kp = s->kp;
    memset(e, 0, sizeof *e);
    uint32_t id = raw;
    if (id_has_core(id)) {
        e->cpu = id >> 24;
        id &= 0xFFFFFFu;
        e->has_cpu = 1;
    }
    e->ev_flags = EVT_HAS_CTX | EVT_HAS_PRIO | (e->has_cpu ? EVT_HAS_CPU : 0u);
    e->id = id;
    /* Id 190 is evtrace's LOST record only with its marker in info3 (the recorder always
     * writes it, and reclaims a slot as a LOST record only with it): an application's own
     * record with that id (tx_trace_user_event_insert takes any id) is no loss. */
    const txtb_event_info *info = not_lost ? NULL : txtb_event_lookup(id);
    if (info) {
        e->name = e->ok_name = info->name;
    } else { /* a formatted name: built once per id (a marker-less 190 keyed apart) */
        uint64_t nkey = id | (uint64_t)not_lost << 32;
        e->name = evt_name_cache_get(&s->idnames, nkey);
        if (!e->name) {
            const char *nm = s->namebuf;
            if (not_lost) snprintf(s->namebuf, sizeof s->namebuf, "UNKNOWN_%" PRIu32, id);
            else nm = txtb_event_name(id, s->namebuf, sizeof s->namebuf);
            e->name = evt_text_ok(nm) ? evt_name_cache_put(&s->idnames, nkey, nm, strlen(nm)) : NULL;
            if (!e->name) e->name = nm; /* out of memory: the name of this event only */
        }
        if (e->name != s->namebuf) e->ok_name = e->name; /* cached only when vouchable */
    }
    if (info) e->kind = (uint8_t)kind_of(info->kind);
    else if (id >= TXTB_USER_EVENT_START && id <= TXTB_USER_EVENT_END) e->kind = EVT_KIND_USER;
    else e->kind = (id >= 200 && id < 1100) ? EVT_KIND_SVC : EVT_KIND_OTHER;
    int k = info ? info->kind : TXTB_K_OTHER;
    e->k = (uint8_t)k;
    e->kcase = k == TXTB_K_RUN || k == TXTB_K_STOP       ? TXTB_KC_THREAD
               : k == TXTB_K_ISR_IN || k == TXTB_K_ISR_OUT ? TXTB_KC_ISR
               : k == TXTB_K_LOST                          ? TXTB_KC_LOST
                                                           : TXTB_KC_NONE;
    if (k == TXTB_K_RUN || k == TXTB_K_STOP || k == TXTB_K_CREATE || k == TXTB_K_DELETE) e->target = 1;
    else if (k == TXTB_K_SVC && id < 200 && id != TXTB_EVENT_INTERRUPT_CONTROL) e->target = 2; /* an object's */
    if (k == TXTB_K_SVC || k == TXTB_K_CREATE || k == TXTB_K_DELETE) {
        /* the service's meaning (ThreadX profile); an operation needs its object (next) */
        evt_meaning t;
        memset(&t, 0, sizeof t);
        const evt_kernel_svc *ksvc = evt_kernel_meaning_of(kp, evt_kernel_svc_find(kp, (int32_t)id), (int32_t)id, 0, 0, &t);
        if (ksvc) e->ok_label = ksvc->label; /* the profile's own text */
        if (!(t.has & EVT_M_LABEL)) { t.has |= EVT_M_LABEL; t.label = e->name; }
        if ((k == TXTB_K_CREATE || k == TXTB_K_DELETE) && !(t.has & EVT_M_OBJ_TYPE)) {
            /* a create/delete id names its object type in the format itself (THREAD_CREATE,
             * QUEUE_CREATE...), whichever kernel's profile the trace carries (the hooks' map) */
            const evt_kernel_svc *tx =
                evt_kernel_svc_find(evt_kernel_profile_by_id(EVT_HOOK_KERNEL_THREADX), (int32_t)id);
            if (tx && tx->obj_type) {
                t.has |= EVT_M_OBJ_TYPE;
                t.obj_type = tx->obj_type;
            }
        }
        e->svc = 1;
        e->m_has = t.has;
        e->label = t.label;
        /* 0 unless their bit is set: decode_slot writes them whole into a cleared block */
        e->obj_type = t.has & EVT_M_OBJ_TYPE ? t.obj_type : 0;
        e->op = t.has & EVT_M_OP ? t.op : 0;
        e->op_result = t.has & EVT_M_OP ? t.op_result : 0;
    }
    if (e->ok_name) e->vouched |= EVT_TEXT_OK_NAME;
    if (!e->svc || e->label == (e->ok_label ? e->ok_label : e->ok_name)) e->vouched |= EVT_TEXT_OK_LABEL;
    /* next()'s usual path never sets next_name, sm_state or text; it clears the target and object
     * bits when it sets a target name not vouched for (the object's name is the target's) */
    e->vouched |= EVT_TEXT_OK_NEXT_NAME | EVT_TEXT_OK_SM_STATE | EVT_TEXT_OK_TEXT | EVT_TEXT_OK_TARGET_NAME |
                  EVT_TEXT_OK_OBJ_NAME;
    role_plan(e, s->hooks.active ? NULL : info_roles(id));
    if (!s->hooks.active) {
        e->dsusp = dsusp_role(id);
        e->pcase = id == TXTB_EVENT_THREAD_CREATE ? TXTB_PC_CREATE : id == TXTB_EVENT_THREAD_PRIORITY_CHANGE ? TXTB_PC_CHANGE
                   : id == TXTB_EVENT_MUTEX_GET ? TXTB_PC_MUTEX_GET : id == TXTB_EVENT_MUTEX_PUT ? TXTB_PC_MUTEX_PUT
                   : TXTB_PC_NONE;
        e->tcreate = id == TXTB_EVENT_TIMER_CREATE;
        e->wcase = id == TXTB_EVENT_THREAD_RESUME ? TXTB_WC_RESUME : id == TXTB_EVENT_THREAD_SUSPEND ? TXTB_WC_SUSPEND
                                                                                                  : TXTB_WC_NONE;
        e->give_keep = e->wcase ? UINT32_MAX : 0u;
        e->give_set = give_of(id);
        e->rcase = e->wcase || e->dsusp == TXTB_DS_TERMINATE || e->dsusp == TXTB_DS_RESET ? TXTB_RC_STATE
                   : id == TXTB_EVENT_THREAD_PREEMPTION_CHANGE                           ? TXTB_RC_THRESHOLD
                   : id == TXTB_EVENT_TIME_SLICE && !e->has_cpu                          ? TXTB_RC_SLICE
                                                                                         : TXTB_RC_NONE;
        e->cold_case = e->dsusp || e->pcase || e->tcreate || e->wcase || e->rcase;
    }
    note_counts(s, e, info);
    e->user_rec = id >= EVT_USER_TXTB_BASE && id <= TXTB_USER_EVENT_END;
    e->hooks = (uint8_t)txtb_hooks_dec_wants(&s->hooks, id, (evt_kind)e->kind); /* hooks.active: set at open */
    if (e->name != s->namebuf) e->key = key;
    return e;
}

static uint32_t idm_hash(uint32_t raw) { return (raw * 2654435761u) >> 22; } /* 10 bits: TXTB_IDM_N */

/* idm_get past idm[]: id 190 (its meaning depends on info3, w6: kept apart in idm190[], by whether
 * it is a LOST record), or an entry to build. */
TXTB_COLD static const txtb_idm *idm_miss(txtb_state *s, uint32_t raw, uint32_t w6)
{
    if ((raw & 0xFFFFFFu) == TXTB_EVTRACE_LOST_ID) { /* CPU bits or not, the id is 190 */
        int not_lost = w6 != TXTB_EVTRACE_LOST_MAGIC; /* a marker-less 190 is no LOST record (idm_build) */
        txtb_idm *e = &s->idm190[not_lost];
        uint64_t key = raw | (uint64_t)3 << 32;
        return e->key == key ? e : idm_build(s, e, raw, not_lost, key);
    }
    return idm_build(s, &s->idm[idm_hash(raw)], raw, 0, raw | (uint64_t)1 << 32);
}

/* The entry of id word raw (info3 w6) for the current profile (direct-mapped: a collision
 * rebuilds). No entry of idm[] has id 190 (idm_miss). */
static inline const txtb_idm *idm_get(txtb_state *s, uint32_t raw, uint32_t w6)
{
    const txtb_idm *e = &s->idm[idm_hash(raw)];
    return e->key == (raw | (uint64_t)1 << 32) ? e : idm_miss(s, raw, w6);
}

/* Count id word raw in count_by_id through e's remembered counts entry. */
static inline void count_event(txtb_state *s, const txtb_idm *ce, uint32_t raw)
{
    txtb_idm *e = (txtb_idm *)ce; /* the counter is the entry's only mutable part */
    if (e->cnt) { e->cnt->count++; return; }
    uint32_t k = count_id(s, raw);
    if (k != UINT32_MAX) e->cnt = &s->counts[k];
}

/* Where records may be missing (a wrapped buffer's oldest, a LOST record, unwritten slots, a
 * truncated file) what the reader knows from the records before is forgotten: each thread's user
 * and inherit priorities (a change there goes unseen) and what each context's records left open
 * (gives). One step whatever the number of objects: both generations move on, and an object's of
 * an older one reads as unknown (prio_fresh, wake_case). When one wraps (the gives' once in 2^24
 * losses, the priorities' once in 2^32) every object is made one of generation 0 again. */
TXTB_COLD static void forget_lost(txtb_state *s)
{
    s->exec = TXTB_EXEC_UNKNOWN;
    s->give_gen += TXTB_GV_GEN_STEP;
    if (++s->pgen && s->give_gen) return;
    if (!s->pgen) s->pgen = 1;
    if (!s->give_gen) s->give_gen = TXTB_GV_GEN_STEP;
    for (uint32_t i = 0; i < s->nobjs; i++) {
        s->objs[i].user1 = s->objs[i].inh1 = 0;
        s->objs[i].rdy = TXTB_RDY_UNKNOWN;
        s->objs[i].eqt = TXTB_EQT_UNKNOWN;
        s->objs[i].pw = 0;
        s->objs[i].pgen = 0;
        s->objs[i].give = 0;
    }
    s->give_isr = s->give_init = 0;
}

/* The run of unwritten slots from the one at idx (off): one error for all (bounded output on a
 * zero-filled buffer). */
TXTB_COLD static void skip_unwritten(txtb_state *s, uint32_t idx, uint64_t off)
{
    uint32_t run = 1;
    const uint8_t *slot;
    forget_lost(s);
    s->run_left = 0; /* slot_at below may move the window */
    while (s->pos < s->span && (slot = slot_at(s, slot_index_of(s, s->pos))) != NULL &&
           slot_ctx(slot, s->big) == TXTB_CTX_NONE) {
        s->pos++;
        run++;
    }
    if (run == 1)
        evt_reader_error(s->r, off, "slot %" PRIu32 " was never written but lies inside the recorded range", idx);
    else
        evt_reader_error(s->r, off, "slot %" PRIu32 " and the %" PRIu32 " slots after it (in time order) were never written but lie inside the recorded range",
                         idx, run - 1);
}

/* ---- the event reset: this reader's own (EVT_READER_RESETS) -------------------------------- */

/* What evt_event_reset leaves, ev->fmt kept (the reader framework set it): the end of the trace
 * and a failure, once per reader. */
TXTB_COLD static void fresh_event(evt_event *ev)
{
    const char *fmt = ev->fmt;
    evt_event_reset(ev);
    ev->fmt = fmt;
}

/* A decoded slot's reset: the members decode_slot does not write whole on every event are zeroed
 * here (target, target_name and count it writes only on some); it writes every other one whole
 * (id, name, kind, ts, offset, flags, ctx, ctx_class, ctx_name, cpu, prio, text_ok, fields_ok,
 * nargs, nfields), so ev reads as evt_event_reset and those writes, whatever it held. */
_Static_assert(offsetof(evt_event, seq) % 8 == 0 && offsetof(evt_event, text_ok) - offsetof(evt_event, seq) == 32 &&
                   offsetof(evt_event, data) % 8 == 0 && offsetof(evt_event, data_is_text) - offsetof(evt_event, data) == 16,
               "slot_reset zeroes seq..target_name and data..data_len whole");
TXTB_INLINE EVT_EVENT_RESET_FN void slot_reset(evt_event *ev)
{
    ev->t_ns = 0;
    ZERO_(&ev->seq, 32); /* seq, count, target, target_name */
    ZERO_(&ev->data, 16); /* data, data_len */
    ev->data_is_text = 0;
    evt_meaning_reset_inline(&ev->m);
}

/* ---- one slot into an event ----------------------------------------------------------------- */

/* The fields decode_slot appends, counted in registers: the event starts with none (slot_reset's
 * caller writes nfields from n), and one slot gives at most TXTB_SLOT_FIELDS (priority and
 * preemption threshold or the interrupted thread and its name, 2; state and next thread, isr_id
 * or the LOST counts, 2; info roles, 4; the context's stack, 2; a delayed suspension, 1), so no
 * append needs a bound. */
#define TXTB_SLOT_FIELDS 11u
_Static_assert(TXTB_SLOT_FIELDS <= EVT_MAX_FIELDS, "a slot's fields fit in an event");
typedef struct txtb_fields {
    evt_field *f;  /* ev->fields */
    unsigned n;    /* appended: <= TXTB_SLOT_FIELDS */
    uint32_t ok;   /* fields_ok of the appended ones (vouched for: key and string value) */
} txtb_fields;

/* Append a number field (vouched), a string field (vouched when ok), as evt_put_u / _s and
 * evt_event_add_field_s do. */
static inline void fld_u(txtb_fields *b, const char *key, uint64_t v)
{
    evt_field_u(b->f + b->n, key, v);
    b->ok |= 1u << b->n++;
}
static inline void fld_s(txtb_fields *b, const char *key, const char *v, int ok)
{
    evt_field_s(b->f + b->n, key, v);
    b->ok |= (uint32_t)(ok != 0) << b->n++;
}

/* The numeric fields of info 1..4 (info[0..3], the event's args) with a role ("enqueued", "sem_count", "stk", ...); with a
 * stack sample of a registered thread's context, that thread's stack ("ctx_stack_start",
 * "ctx_stack_size": registry param 1 and 2, not vouched for). Not for buffers of the generic
 * hooks backend, whose resume/suspend info3 is a state (idm_build plans no roles there). */
static inline void add_role_fields(txtb_state *s, const txtb_idm *e, const uint64_t info[4], evt_event *ev,
                                   txtb_fields *b)
{
    evt_field *f = b->f + b->n; /* nput fields, all vouched for */
    for (unsigned i = 0; i < e->nput; i++) evt_field_u(f + i, e->put_key[i], info[e->put_w[i]]);
    b->ok |= (uint32_t)e->put_ok << b->n;
    b->n += e->nput;
    /* their meaning: counters of the object, a mutex's owner */
    if (e->nlevel) { /* the block's first levels (at most EVT_M_MAX_LEVELS: role_plan) */
        ev->m.nlevels = e->nlevel;
        for (unsigned i = 0; i < e->nlevel; i++) {
            ev->m.level_kind[i] = e->level_kind[i];
            ev->m.level[i] = info[e->level_w[i]];
        }
        ev->m.has |= EVT_M_LEVEL;
    }
    for (unsigned i = 0; i < e->nmrole; i++) {
        uint64_t v = info[e->mrole_w[i]];
        switch (e->mrole[i]) {
        case TXTB_R_OWNER: ev->m.has |= EVT_M_OWNER; ev->m.owner = v; break;
        case TXTB_R_OWNERSHIP_COUNT: ev->m.owner_count = v; break;
        case TXTB_R_STK: ev->m.has |= EVT_M_SP; ev->m.sp = v; break;
        case TXTB_R_STACK_START: ev->m.has |= EVT_M_STACK; ev->m.stack_start = v; break;
        case TXTB_R_NEXT: /* the thread ThreadX runs next (a relinquish, a time slice): a switch */
            ev->m.has |= EVT_M_NEXT;
            ev->m.next_ctx = v;
            ev->m.next_prio = EVT_HOOK_PRIO_UNKNOWN;
            s->exec = v;
            /* tx_thread_relinquish.c counts a relinquish when another thread is to run (never none:
               the relinquishing thread is ready; a 0 is no ThreadX execute pointer) */
            if (e->id == TXTB_EVENT_THREAD_RELINQUISH && v != ev->ctx && v != 0) ev->m.has |= EVT_M_YIELD;
            break;
        case TXTB_R_NEW_PRIO: /* tx_thread_priority_change: the target's priority from now on */
            ev->m.has |= EVT_M_PRIO_SET;
            ev->m.new_prio = v;
            break;
        default: ev->m.stack_size = v; break; /* TXTB_R_STACK_SIZE: beside its start (one row) */
        }
    }
    if (!e->stk || ev->ctx_class != EVT_CTX_THREAD) return;
    const txtb_obj *o = s->ctx_obj; /* the context's (w[0]): ctx_named() ran for this event */
    if (o && o->type == TXTB_OBJ_THREAD) {
        fld_u(b, "ctx_stack_start", o->param1);
        b->ok &= ~(1u << (b->n - 1)); /* as evt_event_add_field_u: checked as usual */
        fld_u(b, "ctx_stack_size", o->param2);
        b->ok &= ~(1u << (b->n - 1));
        ev->m.has |= EVT_M_STACK; /* a sample's event creates nothing: the stack is its context's */
        ev->m.stack_start = o->param1;
        ev->m.stack_size = o->param2;
    }
}

/* The event becomes a thread_stop of thread th (its target: the caller adds EVT_HAS_TARGET, the
 * thread even when the registry does not name it) to ThreadX state st. */
static void stop_of(txtb_state *s, const evt_kernel_profile *kp, evt_event *ev, uint64_t th, uint32_t st)
{
    ev->kind = EVT_KIND_THREAD_STOP;
    ev->target = th;
    stop_meaning(s, kp, st, &ev->m);
}

/* A thread API record whose id changes a thread's state with no record of its own (e->dsusp:
 * TXTB_DS_*): info1 (args[0]) the thread, info2 its state before the call (the new one for a
 * reset). Such an event becomes a thread_stop of that thread: the internal resume of a thread
 * flagged for delayed suspension to suspended (field delayed_suspension 1), a terminate of a thread
 * that is not ready to terminated, a reset to suspended. Before 7 Dec 2026 the first showed the
 * thread ready until its next resume, the others kept it blocked, or terminated, to its next. */
TXTB_COLD static void thread_api_state(txtb_state *s, const txtb_idm *e, const evt_kernel_profile *kp,
                                       evt_event *ev)
{
    uint64_t th = ev->args[0];
    uint32_t st = (uint32_t)ev->args[1], on = 0;
    if (s->ndsusp) (void)evt_u64map_get(&s->dsusp, th, &on);
    switch (e->dsusp) {
    case TXTB_DS_SET: /* only a thread in a wait (SLEEP .. MUTEX_SUSP) gets the flag */
        if (!on && st >= TXTB_STATE_SLEEP && st <= TXTB_STATE_MUTEX_SUSP && evt_u64map_put(&s->dsusp, th, 1))
            s->ndsusp++;
        return;
    case TXTB_DS_TERMINATE:
        if (st != TXTB_STATE_READY && st != TXTB_STATE_COMPLETED && st != TXTB_STATE_TERMINATED)
            stop_of(s, kp, ev, th, TXTB_STATE_TERMINATED);
        break;
    case TXTB_DS_RESET:
        if (st == TXTB_STATE_SUSPENDED) stop_of(s, kp, ev, th, TXTB_STATE_SUSPENDED);
        break;
    case TXTB_DS_RESUME: /* a resume of a thread that is ready already changes nothing (the flag stays) */
        if (!on || st == TXTB_STATE_READY) return;
        stop_of(s, kp, ev, th, TXTB_STATE_SUSPENDED);
        break;
    default: break; /* TXTB_DS_CLEAR */
    }
    if (on) {
        (void)evt_u64map_put(&s->dsusp, th, 0); /* th is in the map: no allocation */
        s->ndsusp--;
    }
}

/* Thread t (NULL: none) with its user and inherit priorities, ready state and threshold as known
 * since the last loss (forget_lost): those of an older generation become unknown here. */
static txtb_obj *prio_fresh(txtb_state *s, txtb_obj *t)
{
    if (t && t->pgen != s->pgen) {
        t->user1 = t->inh1 = 0;
        t->rdy = TXTB_RDY_UNKNOWN;
        t->eqt = TXTB_EQT_UNKNOWN;
        t->pw = 0;
        t->pgen = s->pgen;
    }
    return t;
}

/* TXTB_EQT_* of a priority word of the current form (0x80000000 | threshold << 16 | priority),
 * and thread t's now: from its last such word when no record changed its threshold since (pw),
 * else as eqt says. */
static uint8_t eqt_of_word(uint32_t pw)
{
    return ((pw >> 16) & 0x3FFu) == (pw & 0x3FFu) ? TXTB_EQT_YES : TXTB_EQT_NO;
}
static uint8_t eqt_of(const txtb_obj *t)
{
    return t->pw ? eqt_of_word(t->pw) : t->eqt;
}

/* tx_thread_priority_change (info1 the thread, info2 the new priority, info3 tx_thread_priority
 * before it; tx_thread_priority_change.c): the user priority becomes the new one, and the thread
 * runs at it when it is more urgent (a smaller number) than its inherit priority, else at the
 * inherit priority, which a priority-inheritance mutex it holds set. ThreadX keeps
 * tx_thread_priority = min(user, inherit), so a thread whose info3 is more urgent than its known
 * user priority runs at its inherit priority: info3 is it. Then the event says that the thread
 * keeps its inherited priority (EVT_M_PRIO_KEPT, inherit_prio) and that new_prio is only its base;
 * the end of that inheritance is the timeline's (inferred at its next record, as for any). With
 * neither priority known the new priority is taken as is. */
TXTB_COLD static void prio_change(txtb_state *s, evt_event *ev)
{
    txtb_obj *t = prio_fresh(s, thread_of(s, find_obj(s, (uint32_t)ev->args[0])));
    if (!t || !(ev->m.has & EVT_M_PRIO_SET) || ev->m.new_prio >= 0x3FFu) return;
    uint32_t nw = (uint32_t)ev->m.new_prio, before = (uint32_t)ev->args[2], inh1 = t->inh1, run = nw;
    if (t->user1 && before < t->user1 - 1u) inh1 = before + 1u; /* raised: at its inherit priority */
    if (inh1 && inh1 != TXTB_INH_NONE && nw >= inh1 - 1u) run = inh1 - 1u;
    t->user1 = (uint16_t)(nw + 1u);
    t->inh1 = (uint16_t)inh1;
    t->prio1 = (uint16_t)(run + 1u);
    t->eqt = TXTB_EQT_YES; /* the threshold becomes the priority it runs at, either way */
    t->pw = 0;
    if (run != nw) {
        ev->m.has |= EVT_M_PRIO_KEPT;
        ev->m.inherit_prio = run;
    }
}

/* A record that changes a thread's priority with no priority word of that thread (e->pcase):
 * - its create (info1 the thread, info2 its priority): user priority, no inherit priority
 *   (tx_thread_create.c);
 * - tx_thread_priority_change: prio_change;
 * - tx_mutex_get (info1 the mutex, info2 the wait option, info3 the owner) of a thread that will
 *   wait for a priority-inheritance mutex (registry param1: TX_INHERIT) held by another thread:
 *   the owner's inherit priority becomes the caller's when more urgent, and an owner of a worse
 *   priority (a larger number) is raised to the caller's: ThreadX's tx_mutex_get.c does it (and
 *   counts an inheritance) with no record of its own; the event gets EVT_M_INHERIT. The owner's
 *   priority is the one last known (0: unknown, nothing inferred). A raised owner's inherit
 *   priority was worse than the caller's (it ran at min(user, inherit)), so it is the caller's now.
 * - tx_mutex_put (info2 the owner, info3 its ownership count) that ends the ownership of a mutex
 *   that may inherit: tx_mutex_put.c recomputes the owner's inherit priority from the waiters of
 *   the other mutexes it holds, which the reader does not follow: unknown from there. */
TXTB_COLD static void prio_case(txtb_state *s, const txtb_idm *e, evt_event *ev)
{
    if (e->pcase == TXTB_PC_CHANGE) {
        prio_change(s, ev);
        return;
    }
    if (e->pcase == TXTB_PC_CREATE) {
        txtb_obj *t = prio_fresh(s, thread_of(s, find_obj(s, (uint32_t)ev->args[0])));
        if (!t || ev->args[1] >= 0x3FFu) return;
        t->prio1 = t->user1 = (uint16_t)(ev->args[1] + 1u);
        t->inh1 = TXTB_INH_NONE;
        t->rdy = TXTB_RDY_NO; /* created suspended; an auto-start's resume follows */
        t->eqt = TXTB_EQT_UNKNOWN; /* its threshold is not recorded */
        t->pw = 0;
        return;
    }
    const txtb_obj *mo = find_obj(s, (uint32_t)ev->args[0]);
    if (e->pcase == TXTB_PC_MUTEX_PUT) {
        /* the owner and its count: their roles (TXTB_INFO_ROLE_TABLE), as add_role_fields set them */
        if (!(ev->m.has & EVT_M_OWNER) || ev->m.owner_count != 1u ||
            (mo && mo->type == TXTB_OBJ_MUTEX && mo->param1 != TXTB_TX_INHERIT)) return;
        txtb_obj *o = prio_fresh(s, thread_of(s, find_obj(s, (uint32_t)ev->m.owner)));
        if (o) {
            o->inh1 = 0;
            o->pw = 0; /* the threshold too may be restored to its own (tx_mutex_put.c) */
            o->eqt = TXTB_EQT_UNKNOWN;
        }
        return;
    }
    uint32_t owner = (ev->m.has & EVT_M_OWNER) ? (uint32_t)ev->m.owner : 0u; /* its role: info3 */
    if (!(ev->m.has & EVT_M_CTX_PRIO) || !ev->args[1] || !owner || owner == ev->ctx || ev->m.ctx_prio >= 0x3FFu) return;
    if (!mo || mo->type != TXTB_OBJ_MUTEX || mo->param1 != TXTB_TX_INHERIT) return;
    txtb_obj *o = prio_fresh(s, thread_of(s, find_obj(s, owner)));
    if (!o) return;
    uint16_t caller1 = (uint16_t)(ev->m.ctx_prio + 1u);
    if (o->inh1 && caller1 < o->inh1) o->inh1 = caller1; /* TXTB_INH_NONE is above every priority */
    if (!o->prio1 || o->prio1 <= caller1) return;
    o->prio1 = o->inh1 = caller1;
    if (eqt_of(o) == TXTB_EQT_NO) { /* a threshold less urgent than the new priority is no more */
        o->pw = 0;
        o->eqt = TXTB_EQT_UNKNOWN;
    }
    ev->m.has |= EVT_M_INHERIT;
    ev->m.inherit_ctx = owner;
    ev->m.inherit_prio = ev->m.ctx_prio;
}

/* tx_timer_create with TX_AUTO_ACTIVATE (info4 1; info1 the timer, its target) activates the
 * timer, and ThreadX counts it in the timer's activations as tx_timer_activate's successes
 * (tx_timer_create.c): the event gets the activation (op activate, success) on its object. */
TXTB_COLD static void timer_case(evt_event *ev)
{
    if (ev->args[3] != TXTB_TX_AUTO_ACTIVATE) return;
    ev->m.has |= EVT_M_OP;
    ev->m.op = EVT_OP_ACTIVATE;
    ev->m.op_result = EVT_RES_SUCCESS;
    ev->m.obj = ev->target;
    ev->m.obj_name = ev->target_name; /* vouched for with the target's name (decode_slot) */
}

/* A THREAD_RESUME (info1 the thread, info2 its state) or THREAD_SUSPEND recorded by the context
 * whose give is g (TXTB_GV_*, above): a resume of a waiting thread gets its cause
 * (EVT_M_WAKE_CAUSE): the object given or deleted when the context's last service gives that wait
 * state, an abort after THREAD_WAIT_ABORT (the thread is SUSPENDED by then), a sleep's end, else a
 * timeout (ThreadX's _tx_thread_timeout counts those of the waits but not of sleeps). A give of
 * one waiter ends at it; so does anything open at a suspend (the timer thread's own, after its
 * expirations). A priority-change pair is inside a service: it changes nothing. */
TXTB_COLD static void wake_case(txtb_state *s, const txtb_idm *e, uint32_t *g, evt_event *ev)
{
    uint32_t st = (uint32_t)ev->args[1];
    if (st == TXTB_STATE_PRIORITY_CHANGE) return;
    uint32_t v = *g;
    if (e->wcase == TXTB_WC_SUSPEND) {
        *g = s->give_gen; /* nothing open, known from here */
        return;
    }
    if (g == &s->give_dummy || (v & ~(uint32_t)TXTB_GV_BITS) != s->give_gen) return;
    evt_wake_cause c;
    if (v & TXTB_GV_ABORT) {
        if (st != TXTB_STATE_SUSPENDED) return;
        c = EVT_WAKE_ABORT;
        *g = s->give_gen;
    } else if (st == TXTB_STATE_SLEEP) {
        c = EVT_WAKE_DELAY;
    } else if ((st >= TXTB_STATE_QUEUE_SUSP && st <= TXTB_STATE_BYTE_MEMORY) || st == TXTB_STATE_MUTEX_SUSP) {
        if ((v & TXTB_GV_STATE) == st) {
            c = v & TXTB_GV_DELETED ? EVT_WAKE_DELETED : EVT_WAKE_GIVEN;
            if (!(v & TXTB_GV_MANY)) *g = s->give_gen;
        } else {
            c = EVT_WAKE_TIMEOUT;
        }
    } else {
        return; /* tx_thread_resume of a suspended thread, a creation: no wait ends */
    }
    ev->m.has |= EVT_M_WAKE_CAUSE;
    ev->m.wake_cause = (uint8_t)c;
}

/* Whether thread t (address th) runs without a preemption threshold now, from the next record of
 * its own in the time order: a thread's priority word carries its threshold, which only a
 * record can change (a preemption or priority change of it, a mutex get of which it is the owner,
 * whose inheritance may, a put of its own); such a record, a loss, an unwritten slot or the
 * slots a truncated file lacks, an
 * old-format priority word, the end of the buffer, or TXTB_AHEAD_SLOTS slots end the look without
 * an answer. For a thread that ran since its create and before its first time slice without
 * recording anything (a thread that only computes: what time slicing is for). Bounded: a look
 * from one position is not repeated for t before pos passes its end (ahead_to), and all looks
 * together, with slice_case's scans of the threads, look at most TXTB_AHEAD_BUDGET times the
 * buffer's slots (ahead_left). Reads through its own window: the event window and the run are
 * untouched. */
TXTB_COLD static uint8_t eqt_ahead(txtb_state *s, txtb_obj *t, uint32_t th)
{
    if (s->pos < t->ahead_to || !s->ahead_left) return TXTB_EQT_UNKNOWN;
    if (!s->awin.buf && !win_init(&s->awin, TXTB_AHEAD_SLOTS * TXTB_EVENT_SIZE)) return TXTB_EQT_UNKNOWN;
    uint32_t end = s->span - s->pos > TXTB_AHEAD_SLOTS ? s->pos + TXTB_AHEAD_SLOTS : s->span;
    uint8_t r = TXTB_EQT_UNKNOWN;
    for (uint32_t k = s->pos; k < end && s->ahead_left; k++, s->ahead_left--) {
        if (s->cut_lost && k == s->cut_pos) break; /* the slots a truncated file lacks lie before k */
        uint32_t idx = slot_index_of(s, k), w[8];
        const uint8_t *q = idx < s->avail ? win_at(s, &s->awin, s->ev_off + (uint64_t)idx * TXTB_EVENT_SIZE, TXTB_EVENT_SIZE) : NULL;
        if (!q) break;
        slot_words(s, q, w);
        uint32_t id = id_has_core(w[2]) ? w[2] & 0xFFFFFFu : w[2];
        if (w[0] == th) { /* its own record */
            if (w[1] & TXTB_PRIO_CURRENT_BIT) r = eqt_of_word(w[1]);
            break;
        }
        if (w[0] == TXTB_CTX_NONE || id == TXTB_EVTRACE_LOST_ID ||
            ((id == TXTB_EVENT_THREAD_PREEMPTION_CHANGE || id == TXTB_EVENT_THREAD_PRIORITY_CHANGE) && w[4] == th))
            break;
        if (id == TXTB_EVENT_MUTEX_GET || id == TXTB_EVENT_MUTEX_PUT) { /* th the owner (its role) */
            const uint8_t *ro = info_roles(id);
            int own = 0;
            for (int i = 0; ro && i < 4; i++) own |= ro[i] == TXTB_R_OWNER && w[4 + i] == th;
            if (own) break;
        }
    }
    if (r == TXTB_EQT_UNKNOWN) t->ahead_to = end;
    return r;
}

/* The indexes of the threads' entries in objs (thr, nthr), listed at the first use; 0 when out of
 * memory. */
TXTB_COLD static int thread_list(txtb_state *s)
{
    if (s->thr) return 1;
    if (!(s->thr = evt_malloc(((size_t)s->nobjs + 1u) * sizeof *s->thr))) return 0;
    for (uint32_t i = 0; i < s->nobjs; i++)
        if (s->objs[i].type == TXTB_OBJ_THREAD) s->thr[s->nthr++] = i;
    return 1;
}

/* thread_list for a scan of every thread, charged to the looks' bound (ahead_left); 0 when it
 * cannot be had: an entry missing from objs, out of memory, or the bound spent. */
TXTB_COLD static int scan_threads(txtb_state *s)
{
    if (s->objs_over || !thread_list(s) || s->ahead_left < s->nthr) return 0;
    s->ahead_left -= s->nthr;
    return 1;
}

/* slice_case's answer for the running thread th (> 0) and the execute pointer x after the slice:
 * EVT_M_TIME_SLICE, EVT_M_SLICE_KEPT or EVT_M_SLICE_UNKNOWN. */
TXTB_COLD static unsigned slice_outcome(txtb_state *s, uint32_t th, uint32_t x)
{
    if (x == th) return EVT_M_SLICE_KEPT; /* it runs on */
    txtb_obj *t = prio_fresh(s, thread_of(s, find_obj(s, th)));
    if (t && t->rdy == TXTB_RDY_NO) return EVT_M_SLICE_KEPT; /* it was suspending: only a ready one rotates */
    if (!t || !t->prio1) return EVT_M_SLICE_UNKNOWN;
    const txtb_obj *xo = thread_of(s, find_obj(s, x));
    if (xo && xo->prio1 == t->prio1) return EVT_M_TIME_SLICE; /* its peer runs next */
    if (eqt_of(t) == TXTB_EQT_UNKNOWN) t->eqt = eqt_ahead(s, t, th);
    if (eqt_of(t) == TXTB_EQT_NO) return EVT_M_SLICE_KEPT; /* a threshold overrides time slicing */
    /* a thread without an entry could be its peer; so could any when the scans' bound is spent */
    if (eqt_of(t) == TXTB_EQT_UNKNOWN || !scan_threads(s)) return EVT_M_SLICE_UNKNOWN;
    int unk = 0;
    for (uint32_t i = 0; i < s->nthr; i++) {
        const txtb_obj *u = prio_fresh(s, &s->objs[s->thr[i]]);
        if (u == t || (u->prio1 && u->prio1 != t->prio1)) continue;
        if (u->prio1 && u->rdy == TXTB_RDY_YES) return EVT_M_TIME_SLICE;
        if (u->rdy != TXTB_RDY_NO) unk = 1;
    }
    return unk ? EVT_M_SLICE_UNKNOWN : EVT_M_SLICE_KEPT; /* no peer ready: no rotation */
}

/* The end of a time slice (TIME_SLICE; tx_thread_time_slice.c): ThreadX rotates the ready list
 * of the running thread T, and counts it as T's time slice, when T is ready, another thread of its
 * priority is ready and T uses no preemption threshold (its threshold is its priority). info1 is
 * _tx_thread_execute_ptr afterwards: T itself says no rotation; a ready peer of T's priority says
 * one (only a rotation puts it before T); a more urgent thread (the timer thread, whose expiration
 * made it ready) says neither, and the ready lists as the records left them decide. The running
 * thread is the ISR's interrupted one (its priority word), or the context of a thread's record.
 * The event gets EVT_M_TIME_SLICE (rotated), EVT_M_SLICE_KEPT (not) or EVT_M_SLICE_UNKNOWN (a
 * thread's state, priority or threshold that could decide it is not known), with sliced_ctx T.
 * A thread whose priority changed while it waited, by inheritance, which ThreadX records
 * nowhere, is taken at its last known priority. */
TXTB_COLD static void slice_case(txtb_state *s, evt_event *ev)
{
    uint32_t ctx = (uint32_t)ev->ctx, prio = (uint32_t)ev->prio; /* the slot's words */
    uint32_t th = ctx == TXTB_CTX_ISR ? prio : ctx == TXTB_CTX_INIT ? 0u : ctx;
    if (!th) return; /* no thread ran: no thread's slice */
    ev->m.has |= slice_outcome(s, th, (uint32_t)ev->args[0]);
    ev->m.sliced_ctx = th;
}

/* A THREAD_PREEMPTION_CHANGE (info1 the thread T, info2 the new threshold; written first,
 * tx_thread_preemption_change.c) preempts T when T is the execute pointer, the threshold is allowed
 * (not above T's user priority: else TX_THRESH_ERROR) and a ready thread is more urgent than both
 * T's priority and the new threshold: ThreadX then counts a solicited preemption of T and runs the
 * most urgent ready thread. The event gets EVT_M_PREEMPT (preempted_ctx T); where a state or
 * priority that could decide it is not known (T's inherited priority among them), the reader no
 * longer says that it gives every preemption (preempt_unknown). t: T's entry, or NULL. */
TXTB_COLD static void pchange_case(txtb_state *s, txtb_obj *t, evt_event *ev)
{
    uint64_t th = ev->args[0], nt = ev->args[1];
    if (s->exec != th && s->exec != TXTB_EXEC_UNKNOWN) return; /* it was not to run: none preempted */
    int unk = s->exec == TXTB_EXEC_UNKNOWN || !t || !t->prio1 || t->inh1 != TXTB_INH_NONE;
    if (!unk && nt > t->prio1 - 1u) return; /* TX_THRESH_ERROR: nothing changes */
    if (!unk && !scan_threads(s)) unk = 1;
    if (!unk) {
        uint32_t bar = nt < t->prio1 - 1u ? (uint32_t)nt : t->prio1 - 1u; /* a ready thread above both */
        for (uint32_t i = 0; i < s->nthr; i++) {
            const txtb_obj *u = prio_fresh(s, &s->objs[s->thr[i]]);
            if (u == t || u->rdy == TXTB_RDY_NO || (u->prio1 && u->prio1 - 1u >= bar)) continue;
            if (u->prio1 && u->rdy == TXTB_RDY_YES) { /* it runs in T's place, T stays ready */
                ev->m.has |= EVT_M_PREEMPT;
                ev->m.preempted_ctx = th;
                s->exec = TXTB_EXEC_UNKNOWN; /* the head of the most urgent ready list */
                return;
            }
            unk = 1;
        }
        if (!unk) return;
    }
    if (!s->preempt_unknown) preempt_not_known(s);
}

/* What ThreadX's ready lists and thresholds are, as the records say (e->rcase): a THREAD_RESUME
 * makes its thread ready, a THREAD_SUSPEND not (ThreadX records a suspend only when it takes the
 * thread off its ready list, and a resume at its start; thread_api_state has made a resume that
 * leaves it suspended, and a terminate or reset of a thread that is not ready, a thread_stop); a
 * THREAD_PREEMPTION_CHANGE (info1 the thread, info2 the new threshold) sets the threshold, which
 * is the new one unless the thread runs at an inherited priority (then unknown here); a TIME_SLICE
 * is slice_case's. A create makes its thread not ready (prio_case), a priority change gives it no
 * threshold (prio_change). to: the registry entry at info1 (decode_slot found it for the target:
 * every rcase id but TIME_SLICE has one). */
TXTB_COLD static void ready_case(txtb_state *s, const txtb_idm *e, const txtb_obj *to, evt_event *ev)
{
    if (e->rcase == TXTB_RC_STATE) { /* the usual: a resume or a suspend */
        if (ev->kind != EVT_KIND_THREAD_RUN && ev->kind != EVT_KIND_THREAD_STOP) return;
        txtb_obj *t = prio_fresh(s, thread_of(s, to));
        if (t) t->rdy = ev->kind == EVT_KIND_THREAD_RUN ? TXTB_RDY_YES : TXTB_RDY_NO;
        return;
    }
    if (e->rcase == TXTB_RC_SLICE) {
        slice_case(s, ev);
        return;
    }
    txtb_obj *t = prio_fresh(s, thread_of(s, to)); /* TXTB_RC_THRESHOLD */
    pchange_case(s, t, ev);
    if (!t) return;
    t->pw = 0; /* older than this change */
    if (!t->prio1 || !t->inh1 || t->inh1 != TXTB_INH_NONE || ev->args[1] >= 0x3FFu) t->eqt = TXTB_EQT_UNKNOWN;
    else t->eqt = ev->args[1] + 1u == t->prio1 ? TXTB_EQT_YES : TXTB_EQT_NO;
}

/* The end of an event whose id the generic hooks or the user records decode too (e->hooks,
 * e->user_rec): their decoders get the slot's 8 words (p is still valid: since slot_at gave it,
 * only the registry window was read); then a string is vouched for only while it is still the
 * reader's own (ok_ctx, ok_target: as decode_slot set them). */
TXTB_COLD static int decode_more(txtb_state *s, const txtb_idm *e, const uint8_t *p, uint64_t off,
                                        evt_event *ev, const char *ok_ctx, const char *ok_target)
{
    uint32_t w[8];
    slot_words(s, p, w);
    ev->text_ok = 0; /* slot_reset left it to the end: the decoders below do not set it */
    if (e->hooks) txtb_hooks_dec_event(&s->hooks, e->id, w, ev, hooks_obj_name, s);
    if (e->user_rec && !user_record(s, e->id, w, off, ev)) return 2; /* not shown: the next slot */
    const char *ok_name = e->ok_name, *ok_label = e->svc ? e->ok_label : NULL;
    evt_vouch(ev, EVT_TEXT_OK_NAME, ev->name, ok_name);
    evt_vouch(ev, EVT_TEXT_OK_CTX_NAME, ev->ctx_name, ok_ctx);
    evt_vouch(ev, EVT_TEXT_OK_TARGET_NAME, ev->target_name, ok_target);
    evt_vouch(ev, EVT_TEXT_OK_LABEL, ev->m.label, ok_label ? ok_label : ok_name);
    evt_vouch(ev, EVT_TEXT_OK_OBJ_NAME, ev->m.obj_name, ok_target);
    return 1;
}

/* The slot p (file offset off) into ev, which it resets itself (slot_reset), in byte order big: a
 * constant where next() inlines it, one copy per byte order. 0, changing nothing, when the slot was
 * never written; 2 when it is not shown (decode_more: ev is left to the next slot's reset); else 1
 * (an event). */
TXTB_INLINE EVT_EVENT_RESET_FN int decode_slot(txtb_state *s, const uint8_t *p, uint64_t off, evt_event *ev,
                                               int big)
{
#if defined(__GNUC__)
    if (!p) __builtin_unreachable(); /* a slot in memory: its reads need no NULL test */
#endif
    uint32_t ctx = slot_word(p, TXTB_EV_CONTEXT, big);
    if (ctx == TXTB_CTX_NONE) return 0;
    uint32_t prio = slot_word(p, TXTB_EV_PRIORITY, big);
    uint32_t raw = slot_word(p, TXTB_EV_ID, big), raw_ts = slot_word(p, TXTB_EV_TIMESTAMP, big);
    uint32_t i3 = slot_word(p, TXTB_EV_INFO3, big);
    uint32_t m = raw_ts & s->mask, x = ts_dir(s, m);
    if (!s->valid) s->first_masked = m; /* the first event */
    s->ts += (x - s->prev_dir) & s->ts_low; /* m <= mask <= ts_low: the first step is m or mask - m */
    s->prev_dir = x;
    s->valid++;

    const evt_kernel_profile *kp = profile(s);
    const txtb_idm *e = idm_get(s, raw, i3);
    count_event(s, e, raw);
    int k = e->k;
    slot_reset(ev);
    ev->id = e->id;
    ev->name = e->name;
    /* the strings vouched for (text_ok.h): the id's own (idm_build), the others as they are set */
    const char *ok_ctx = NULL, *ok_target = NULL;
    unsigned vouched = e->vouched;
    unsigned flags = e->ev_flags; /* ev->flags, written whole below */
    txtb_fields fb = {ev->fields, 0, 0};
    ev->kind = (evt_kind)e->kind;
    ev->ts = s->ts;
    ev->offset = off;
    ev->ctx = ctx;
    ev->prio = prio;
    ev->cpu = e->cpu; /* 0 without EVT_HAS_CPU */
    ev->nargs = 4;
    /* info 1..4; the code below reads them back from args[] where it needs them (rather than
     * keeping them in registers across its calls) */
    ev->args[0] = slot_word(p, TXTB_EV_INFO1, big);
    ev->args[1] = slot_word(p, TXTB_EV_INFO2, big);
    ev->args[2] = i3;
    ev->args[3] = slot_word(p, TXTB_EV_INFO4, big);
    uint32_t *give; /* the context's give (wake_case) */
    if (ctx == TXTB_CTX_ISR) {
        s->ctx_isr++;
        give = &s->give_isr;
        ev->ctx_class = EVT_CTX_ISR;
        ev->ctx_name = ok_ctx = "ISR";
        vouched |= EVT_TEXT_OK_CTX_NAME;
        if (prio != 0) {
            const txtb_obj *io = find_obj(s, prio);
            const char *nm = obj_name(s, io, NAME_INTERRUPTED);
            fld_u(&fb, "interrupted", prio);
            if (nm) fld_s(&fb, "interrupted_name", nm, nm == obj_name_ok(s, io));
        }
    } else if (ctx == TXTB_CTX_INIT) {
        s->ctx_init++;
        give = &s->give_init;
        ev->ctx_class = EVT_CTX_INIT;
        ev->ctx_name = ok_ctx = "Initialization";
        vouched |= EVT_TEXT_OK_CTX_NAME;
    } else {
        s->ctx_thread++;
        ev->ctx_class = EVT_CTX_THREAD;
        ev->ctx_name = ctx_named(s, ctx, &ok_ctx);
        vouched |= s->ctx_vbit; /* ctx_named's: vouched for, or NULL (nothing to check) */
        if (prio & TXTB_PRIO_CURRENT_BIT) {
            fld_u(&fb, "priority", prio & 0x3FFu);
            fld_u(&fb, "preemption_threshold", (prio >> 16) & 0x3FFu);
            *s->ctx_pw = prio; /* its threshold (eqt_of) */
        } else {
            fld_u(&fb, "priority", prio);
        }
        ev->m.has = EVT_M_CTX_PRIO; /* the first bit: slot_reset cleared the block */
        ev->m.ctx_prio = prio & TXTB_PRIO_CURRENT_BIT ? prio & 0x3FFu : prio;
        *s->ctx_prio1 = (uint16_t)(ev->m.ctx_prio + 1u); /* its priority as last known (prio_case) */
        give = s->thr_give; /* ctx_named's */
    }
    *give = (*give & e->give_keep) | ((e->give_set | s->give_gen) & ~e->give_keep);
    const txtb_obj *tobj = NULL; /* info1's registry entry (e->target), any kind: ready_case's */
    if (e->target) {
        uint32_t i1 = (uint32_t)ev->args[0];
        const txtb_obj *o = tobj = find_obj(s, i1);
        if (o || e->target == 1) {
            flags |= EVT_HAS_TARGET;
            ev->target = i1;
            /* an object is named only by an entry of its own kind (a thread's by a thread's) */
            if (o && entry_other_kind(o, e->obj_type)) o = NULL;
            ev->target_name = obj_name(s, o, NAME_TARGET);
            ok_target = obj_name_ok(s, o);
            if (!ok_target && ev->target_name) vouched &= ~(unsigned)(EVT_TEXT_OK_TARGET_NAME | EVT_TEXT_OK_OBJ_NAME);
        }
    }
    if (e->svc) { /* the service's meaning (idm_build); an operation needs its object */
        unsigned has = ev->m.has | e->m_has;
        ev->m.label = e->label;
        ev->m.obj_type = e->obj_type; /* 0 without their bit (idm_build) */
        ev->m.op = e->op;
        ev->m.op_result = e->op_result;
        if ((e->m_has & EVT_M_OP) && (flags & EVT_HAS_TARGET)) {
            ev->m.obj = ev->target;
            ev->m.obj_name = ev->target_name; /* its bit: the target's (above) */
        } else {
            has &= ~(unsigned)EVT_M_OP;
        }
        ev->m.has = has;
    }
    switch (e->kcase) {
    case TXTB_KC_NONE: break;
    case TXTB_KC_THREAD: {
        uint32_t i2 = (uint32_t)ev->args[1];
        const char *sn = i2 < TXTB_STM_N ? s->stm_name[i2] : txtb_thread_state_name(i2);
        if (sn) fld_s(&fb, "state", sn, 1); /* txtb_names' own text */
        if (k == TXTB_K_STOP) stop_meaning(s, kp, i2, &ev->m);
        /* info4 names the next thread in ThreadX's own records; a dispatcher hook's is not one */
        if (!s->hooks.active) {
            fld_u(&fb, "next_thread", ev->args[3]);
            ev->m.has |= EVT_M_NEXT;
            ev->m.next_ctx = ev->args[3];
            ev->m.next_prio = EVT_HOOK_PRIO_UNKNOWN;
            uint64_t was = s->exec;
            s->exec = ev->args[3];
            /* a resume that makes its thread the one to run next in place of another: ThreadX's
               _tx_thread_system_resume counts a preemption of that one (solicited from a thread,
               an interrupt's from an ISR; none during initialization) */
            if (ev->args[3] == ev->args[0] && e->wcase == TXTB_WC_RESUME) {
                if (!s->seen_next_self) next_self(s);
                if (was != ev->args[0] && was != 0 && ctx != TXTB_CTX_INIT) {
                    if (was != TXTB_EXEC_UNKNOWN) {
                        ev->m.has |= EVT_M_PREEMPT;
                        ev->m.preempted_ctx = was;
                    } else if (!s->preempt_unknown) {
                        preempt_not_known(s); /* another thread may have been the one to run */
                    }
                }
            }
        }
        break;
    }
    case TXTB_KC_ISR:
        fld_u(&fb, "isr_id", ev->args[1]);
        ev->m.has |= EVT_M_IRQ;
        ev->m.irq = (uint32_t)ev->args[1];
        /* ThreadX's own ISR entry: its priority word is _tx_thread_current_ptr, the thread that
           was running (0: none) */
        if (k == TXTB_K_ISR_IN && ctx == TXTB_CTX_ISR && prio && !s->hooks.active) {
            ev->m.has |= EVT_M_INTERRUPTED;
            ev->m.interrupted_ctx = prio;
        }
        break;
    default: { /* TXTB_KC_LOST */
        /* evtrace's LOST record (txtb_defs.h): info1 dropped (and carried again), info4
         * overwritten by wraps (written at disable); both are records lost. */
        uint64_t dropped = ev->args[0], ow = ev->args[3]; /* a LOST record has the marker (above) */
        forget_lost(s);
        flags |= EVT_HAS_COUNT;
        ev->count = dropped + ow;
        fld_u(&fb, "dropped", dropped);
        fld_u(&fb, "overwritten", ow);
        break;
    }
    }
    if (e->roles) add_role_fields(s, e, ev->args, ev, &fb); /* args[0..3]: info 1..4 */
    if (e->cold_case) { /* one test on the usual path for all three below */
        if (e->dsusp && (s->ndsusp || e->dsusp != TXTB_DS_RESUME)) {
            /* by value: flags and fb passed by address would live in memory on every event's path */
            evt_kind k0 = ev->kind;
            thread_api_state(s, e, kp, ev);
            if (ev->kind != k0) { /* made a stop of its thread (args[0]) */
                flags |= EVT_HAS_TARGET;
                if (e->dsusp == TXTB_DS_RESUME) fld_u(&fb, "delayed_suspension", 1);
            }
        }
        if (e->pcase) prio_case(s, e, ev);
        if (e->tcreate) timer_case(ev);
        if (e->wcase) wake_case(s, e, give, ev);
        if (e->rcase) ready_case(s, e, tobj, ev);
    }
    ev->flags = flags;
    ev->nfields = fb.n;
    ev->fields_ok = fb.ok;
    /* what is still the reader's vouched-for text needs no per-event check: all of it, unless
     * the hooks or user decoders replace some (usually EVT_TEXT_OK_ALL: one compare) */
    if (e->hooks || e->user_rec) return decode_more(s, e, p, off, ev, ok_ctx, ok_target);
    ev->text_ok = vouched;
    return 1;
}

/* Start the run after slot idx, time order pos - 1, just read through slot_at (file offset off):
 * the slots after it in its segment of the time order (slot_index_of) that the window holds, each
 * whole in memory as slot_at gives it. */
static void run_start(txtb_state *s, uint32_t idx, uint64_t off)
{
    uint32_t seg_end = s->pos - 1 < s->seg1 ? s->seg1 : s->span; /* seg1 <= span */
    uint32_t win_end = s->ewin_first + s->ewin_slots;        /* > idx: slot_at found idx there */
    uint32_t in_time = seg_end - s->pos, in_win = win_end > idx ? win_end - idx - 1 : 0;
    s->run_left = in_time < in_win ? in_time : in_win;
    s->run_p = s->ewin.buf + (size_t)(idx + 1 - s->ewin_first) * TXTB_EVENT_SIZE; /* as slot_at */
    s->run_off = off + TXTB_EVENT_SIZE;
}

/* The lost event of the slots a truncated file lacks (cut_lost), at the file's end offset. */
TXTB_COLD static evt_status cut_lost_event(txtb_state *s, evt_event *ev)
{
    fresh_event(ev);
    ev->kind = EVT_KIND_LOST;
    ev->name = "lost";
    ev->offset = s->r->src.size;
    ev->ts = s->ts;
    ev->flags = EVT_HAS_COUNT;
    ev->count = s->cut_lost;
    s->cut_lost = 0;
    forget_lost(s);
    return EVT_OK;
}

/* EVT_READER_RESETS: every return leaves ev reset but for what it writes (decode_slot's
 * slot_reset; the end and a failure: fresh_event). */
static EVT_EVENT_RESET_FN evt_status next(void *state, evt_event *ev)
{
    txtb_state *s = state;
    for (;;) {
        const uint8_t *p = s->run_p;
        uint64_t off = s->run_off;
        if (s->run_left) { /* the usual case: the next slot of the run */
            s->run_left--;
            s->pos++;
            s->run_p += TXTB_EVENT_SIZE;
            s->run_off = off + TXTB_EVENT_SIZE;
        } else {
            if (s->cut_lost && s->pos == s->cut_pos) return cut_lost_event(s, ev);
            if (s->pos >= s->span) {
                if (!s->beyond_checked) check_beyond(s);
                fresh_event(ev);
                return EVT_END;
            }
            uint32_t idx = slot_index_of(s, s->pos++);
            off = s->ev_off + (uint64_t)idx * TXTB_EVENT_SIZE;
            p = slot_at(s, idx);
            if (!p) {
                fresh_event(ev);
                return evt_reader_fail(s->r, EVT_ERR_IO, off, "event slot %" PRIu32 " unreadable", idx);
            }
            run_start(s, idx, off);
        }
        int k = s->big ? decode_slot(s, p, off, ev, 1) : decode_slot(s, p, off, ev, 0);
        if (k == 1) return EVT_OK;
        if (!k) skip_unwritten(s, (uint32_t)((off - s->ev_off) / TXTB_EVENT_SIZE), off);
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The used registry slots in slot order: from the index when it holds them all (caller frees),
 * else NULL (the caller scans the registry). */
static uint32_t *used_slots(const txtb_state *s)
{
    if (s->objs_over || !s->nobjs) return NULL;
    uint32_t *v = evt_malloc((size_t)s->nobjs * sizeof *v);
    if (!v) return NULL;
    for (uint32_t i = 0; i < s->nobjs; i++) v[i] = s->objs[i].index;
    qsort(v, s->nobjs, sizeof *v, cmp_u32);
    return v;
}

/* The k-th used slot (k from 0), its entry in *e and name in rolebuf[NAME_CTX], or UINT32_MAX at
 * the end. v from used_slots(); without it (index over its limit, or memory short) a scan of the
 * registry from *scan. */
static uint32_t next_used(txtb_state *s, const uint32_t *v, uint32_t k, uint32_t *scan, txtb_entry *e)
{
    if (v) {
        if (k >= s->nobjs || !read_entry(s, v[k], e, s->rolebuf[NAME_CTX])) return UINT32_MAX;
        return v[k];
    }
    if (!s->nobjs) return UINT32_MAX; /* no used entry at all */
    for (; *scan < s->reg_present; (*scan)++)
        if (read_entry(s, *scan, e, s->rolebuf[NAME_CTX]) && e->type != TXTB_OBJ_NONE) return (*scan)++;
    return UINT32_MAX;
}

static int cmp_count(const void *a, const void *b)
{
    const id_count *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static void info_json(void *state, evt_json *j)
{
    txtb_state *s = state;
    char tb[48];
    evt_json_kstr(j, "byte_order", s->big ? "big" : "little");
    evt_json_ku64(j, "capacity", s->capacity);
    evt_json_kbool(j, "wrapped", s->wrapped);
    evt_json_ku64(j, "oldest_index", s->wrapped ? s->current : 0);
    evt_json_ku64(j, "current_index", s->current);
    evt_json_ku64(j, "valid_entries", s->valid);
    evt_json_ku64(j, "torn_user_slots", s->torn);
    evt_json_ku64(j, "timer_mask", s->mask);
    evt_json_kstr(j, "timer_direction", s->timer_down ? "down" : "up");
    evt_json_key(j, "first_timestamp");
    if (s->valid) evt_json_u64(j, s->first_masked); else evt_json_null(j);
    evt_json_key(j, "last_timestamp");
    if (s->valid) evt_json_u64(j, ts_dir(s, s->prev_dir)); else evt_json_null(j);
    evt_json_ku64(j, "registry_entries", s->reg_entries);
    evt_json_ku64(j, "object_name_size", s->name_size);
    evt_json_ku64(j, "registry_offset", s->reg_off);
    evt_json_ku64(j, "event_area_offset", s->ev_off);
    evt_json_ku64(j, "trace_base_address", s->hdr[TXTB_HDR_BASE / 4]);
    evt_json_key(j, "contexts");
    evt_json_obj_begin(j);
    evt_json_ku64(j, "thread", s->ctx_thread);
    evt_json_ku64(j, "isr", s->ctx_isr);
    evt_json_ku64(j, "init", s->ctx_init);
    evt_json_obj_end(j);
    /* count_by_id in id order: the hash's entries, sorted in a copy */
    id_count *v = s->ncounts ? evt_malloc((size_t)s->ncounts * sizeof *v) : NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; v && i < s->ccap; i++)
        if (s->counts[i].count) v[n++] = s->counts[i];
    if (n > 1) qsort(v, n, sizeof *v, cmp_count);
    evt_json_key(j, "count_by_id");
    evt_json_obj_begin(j);
    for (uint32_t i = 0; i < n; i++) {
        char k[16];
        snprintf(k, sizeof k, "%" PRIu32, v[i].id);
        evt_json_ku64(j, k, v[i].count);
    }
    evt_json_obj_end(j);
    evt_free(v);
    if (s->untracked_ids) evt_json_ku64(j, "count_by_id_untracked", s->untracked_ids);
    if (s->avail < s->capacity) evt_json_ku64(j, "slots_present", s->avail);
    evt_json_key(j, "objects");
    evt_json_arr_begin(j);
    /* every used registry slot, read in place */
    uint32_t *used = used_slots(s), scan = 0, i;
    txtb_entry e;
    for (uint32_t k = 0; (i = next_used(s, used, k, &scan, &e)) != UINT32_MAX; k++) {
        evt_json_obj_begin(j);
        evt_json_ku64(j, "index", i);
        evt_json_ku64(j, "type", e.type);
        evt_json_kstr(j, "type_name", txtb_objtype_name(e.type, tb, sizeof tb));
        evt_json_kstr(j, "name", s->rolebuf[NAME_CTX]);
        evt_json_ku64(j, "addr", e.addr);
        evt_json_ku64(j, "param1", e.param1);
        evt_json_ku64(j, "param2", e.param2);
        evt_json_ku64(j, "available", e.available);
        if (e.type == TXTB_OBJ_THREAD && (e.res1 & TXTB_REG_PRIO_PRESENT))
            evt_json_ku64(j, "priority", reg_priority(&e));
        evt_json_obj_end(j);
    }
    evt_free(used);
    evt_json_arr_end(j);
}

static void info_text(void *state, FILE *out)
{
    txtb_state *s = state;
    char tb[48];
    fprintf(out, "byte order: %s\n", s->big ? "big-endian" : "little-endian");
    fprintf(out, "layout:   header 48 B, registry %" PRIu32 " x %" PRIu32 " B at offset %" PRIu64
                 ", %" PRIu32 " event slots at offset %" PRIu64 "\n",
            s->reg_entries, s->reg_entry_size, s->reg_off, s->capacity, s->ev_off);
    fprintf(out, "buffer:   %s, oldest slot %" PRIu32 ", %" PRIu64 " valid entries\n",
            s->wrapped ? "wrapped" : "not wrapped", s->wrapped ? s->current : 0, s->valid);
    fprintf(out, "timer:    mask 0x%08" PRIx32 ", counts %s\n", s->mask, s->timer_down ? "down" : "up");
    fprintf(out, "objects:\n");
    uint32_t *used = used_slots(s), scan = 0, i;
    txtb_entry e;
    for (uint32_t k = 0; (i = next_used(s, used, k, &scan, &e)) != UINT32_MAX; k++) {
        char safe[4 * 64 + 8]; /* the name as the trace holds it, terminal-safe (host/safe_text.h) */
        evt_text_escape(s->rolebuf[NAME_CTX], strlen(s->rolebuf[NAME_CTX]), safe, sizeof safe);
        fprintf(out, "  [%2" PRIu32 "] %-15s 0x%08" PRIx32 " %-32s p1=%" PRIu32 " p2=%" PRIu32 "%s", i,
                txtb_objtype_name(e.type, tb, sizeof tb), e.addr, safe, e.param1, e.param2,
                e.available ? " (deleted)" : "");
        if (e.type == TXTB_OBJ_THREAD && (e.res1 & TXTB_REG_PRIO_PRESENT))
            fprintf(out, " prio=%" PRIu32, reg_priority(&e));
        fputc('\n', out);
    }
    evt_free(used);
}

static void close_(void *state)
{
    txtb_state *s = state;
    if (!s) return;
    evt_free(s->objs);
    evt_free(s->names);
    for (int i = 0; i < NAME_ROLES; i++) evt_free(s->rolebuf[i]);
    evt_free(s->rwin.buf);
    evt_free(s->ewin.buf);
    evt_free(s->awin.buf);
    evt_free(s->thr);
    evt_free(s->counts);
    evt_free(s->idm);
    evt_name_cache_free(&s->idnames);
    evt_user_dec_free(s->user);
    evt_u64map_free(&s->dsusp);
    evt_free(s);
}

const evt_reader_desc evt_reader_threadx = {
    "threadx", "ThreadX event trace buffer (TXTB, TraceX .trx), either byte order",
    probe, open_, next, info_json, info_text, close_, k_opts, EVT_READER_RESETS,
};

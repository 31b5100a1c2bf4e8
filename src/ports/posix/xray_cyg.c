/* XRay recorder front end for -finstrument-functions (GCC or clang): __cyg_profile_func_enter/exit
 * give function addresses; a lock-free open-addressing table assigns XRay function ids (1, 2, ...
 * in order of first call; a gap where two calls raced to number one function), and evt_xray_write_map() writes the id -> address (+ name when dladdr
 * knows it) map in llvm-xray's YAML form so `evtrace --instr-map` and `llvm-xray -m` resolve it.
 * Linked in only when the program references these hooks. While the recorder is stopped a hook
 * costs one relaxed load of the gate (no id lookup, no clock read). Part of the POSIX recorder
 * runtime (evtrace_rec). Contract: include/evtrace/xray.h. */
#define _GNU_SOURCE
#include "evtrace/xray.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "formats/xray/xray_defs.h"

#define CYG_SLOTS (1u << 16) /* power of two; at most CYG_SLOTS - 1 functions */

static uintptr_t g_key[CYG_SLOTS];  /* function address, 0 = empty (atomic) */
static uint32_t g_id[CYG_SLOTS];    /* its id, 0 until published (atomic) */
static uint32_t g_next_id;          /* atomic */

#define NOINST __attribute__((no_instrument_function))

NOINST uint32_t evt_xray_cyg_count(void);
NOINST void __cyg_profile_func_enter(void *fn, void *site);
NOINST void __cyg_profile_func_exit(void *fn, void *site);

uint32_t evt_xray_cyg_count(void) { return __atomic_load_n(&g_next_id, __ATOMIC_ACQUIRE); }

/* The id of the function in slot h (its key is set). Whoever finds no id there assigns one (the
 * inserter right after the key, or anyone who comes before it has done so) and the first
 * compare-and-swap wins; nobody waits for the inserter: a signal handler that interrupted it
 * between the key and the id would wait forever. A lost race leaves a gap in the numbering. */
static NOINST uint32_t id_at(uint32_t h)
{
    uint32_t id = __atomic_load_n(&g_id[h], __ATOMIC_ACQUIRE);
    if (id) return id;
    uint32_t mine = __atomic_add_fetch(&g_next_id, 1, __ATOMIC_ACQ_REL);
    if (mine > XRAY_FN_ID_MAX) mine = XRAY_FN_ID_MAX;
    if (__atomic_compare_exchange_n(&g_id[h], &id, mine, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return mine;
    return id; /* another call assigned it first */
}

/* Id of fn, assigned on first sight; XRAY_FN_ID_MAX when the table is full. */
static NOINST uint32_t id_of(void *fn)
{
    uintptr_t a = (uintptr_t)fn;
    uint32_t h = (uint32_t)((a >> 4) * 2654435761u) & (CYG_SLOTS - 1);
    for (uint32_t n = 0; n < CYG_SLOTS; n++, h = (h + 1) & (CYG_SLOTS - 1)) {
        uintptr_t k = __atomic_load_n(&g_key[h], __ATOMIC_ACQUIRE);
        if (k == 0 && !__atomic_compare_exchange_n(&g_key[h], &k, a, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) && k != a)
            continue; /* another function took the slot */
        if (k == 0 || k == a) return id_at(h); /* inserted it here, or found it */
    }
    return XRAY_FN_ID_MAX;
}

void __cyg_profile_func_enter(void *fn, void *site)
{
    (void)site;
    if (evt_gate_bits(&evt_xray_gate)) evt_xray_fn_on(XRAY_FN_ENTER, id_of(fn));
}

void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)site;
    if (evt_gate_bits(&evt_xray_gate)) evt_xray_fn_on(XRAY_FN_EXIT, id_of(fn));
}

/* Write s as a YAML plain or single-quoted scalar. */
static NOINST void yaml_scalar(FILE *f, const char *s)
{
    if (strpbrk(s, ",:{}[]#'\"&*!|>%@` ") == NULL && *s) { fputs(s, f); return; }
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* Written under a temporary name beside path and renamed over it once whole (as the trace). */
NOINST int evt_xray_write_map(const char *path)
{
    char tmp[4096];
    int fd = evt_xray_open_tmp_(path, tmp, sizeof tmp);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        return -1;
    }
    fprintf(f, "# evtrace XRay map for -finstrument-functions: ids in order of first call; addresses are\n"
               "# run-time addresses (module and offset in the comment after each entry).\n---\n");
    for (uint32_t h = 0; h < CYG_SLOTS; h++) { /* slot order; readers sort by id */
        uint32_t id = __atomic_load_n(&g_id[h], __ATOMIC_ACQUIRE);
        if (id == 0) continue;
        uintptr_t a = __atomic_load_n(&g_key[h], __ATOMIC_ACQUIRE);
        Dl_info di;
        int known = dladdr((void *)a, &di) != 0;
        fprintf(f, "- { id: %u, address: 0x%llX, function: 0x%llX, kind: function-enter, always-instrument: false",
                id, (unsigned long long)a, (unsigned long long)a);
        if (known && di.dli_sname && di.dli_saddr == (void *)a) {
            fputs(", function-name: ", f);
            yaml_scalar(f, di.dli_sname);
        }
        fputs(" }", f);
        if (known && di.dli_fname)
            fprintf(f, " # %s+0x%llx", di.dli_fname, (unsigned long long)(a - (uintptr_t)di.dli_fbase));
        fputc('\n', f);
    }
    fputs("...\n", f);
    int ok = !ferror(f);
    if (fclose(f) != 0) ok = 0;
    if (ok && rename(tmp, path) == 0) return 0;
    (void)unlink(tmp);
    return -1;
}

/* Small helpers shared by the analyses (analyses.h): growing arrays of per-context records, the
 * worst-N list, overlap of intervals, and the labels every analysis prints. Host side only. */
#ifndef EVT_ANALYSIS_AN_UTIL_H
#define EVT_ANALYSIS_AN_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "host/timeline/timeline.h"

struct evt_json;

/* Make *arr (elements of size `size`, *cap of them) hold index i, new elements zeroed. Returns 0
 * when out of memory (then *arr is unchanged). */
int evt_an_reserve(void **arr, uint32_t *cap, uint32_t i, size_t size);

/* The N largest values seen, with their start time, largest first. */
#define EVT_AN_WORST_N 5
typedef struct evt_an_worst {
    uint32_t n;
    uint64_t value[EVT_AN_WORST_N];
    uint64_t t[EVT_AN_WORST_N];
} evt_an_worst;
void evt_an_worst_add(evt_an_worst *w, uint64_t value, uint64_t t);
/* [{"t":..,"duration":..}, ...] */
void evt_an_worst_json(const evt_an_worst *w, struct evt_json *j);

/* Length of [a0, a1) ∩ [b0, b1) (0 when disjoint). */
uint64_t evt_an_overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1);

/* Display label of a context index of tl ("thread 1", "ctx 0x..", "idle" for EVT_TL_NONE). */
const char *evt_an_ctx_label(const evt_tl *tl, uint32_t index, char *buf, size_t len);
/* "name" (label), "class" and "id" (when known) keys of a context. */
void evt_an_ctx_keys(const evt_tl *tl, uint32_t index, struct evt_json *j);
/* Display label of an object index ("name", else "0x<id>", "-" for EVT_TL_NONE). */
const char *evt_an_obj_label(const evt_tl *tl, uint32_t index, char *buf, size_t len);
/* The unit of every time of tl: "ns" or "ticks". */
const char *evt_an_unit(const evt_tl *tl);
/* Text summaries list at most this many rows per table; the rest are counted (all are in JSON). */
#define EVT_AN_TEXT_ROWS 20
/* "  ... N more (all in --json)" when n > 0. */
void evt_an_text_more(FILE *out, uint64_t n);
/* pct = 100 * part / whole (0 when whole is 0). */
double evt_an_pct(uint64_t part, uint64_t whole);

#endif

/* Latency histogram with bounded memory and exact small samples.
 *
 * The first EVT_HIST_EXACT values are kept as they are, so percentiles of up to that many samples
 * are exact. Beyond that every value goes into a log-linear histogram: values below 64 have
 * their own bucket (exact); a value v >= 64 with highest set bit e falls into one of 64 equal
 * sub-buckets of [2^e, 2^(e+1)), i.e. a bucket is 1/64 of its lower bound wide. A percentile is
 * reported as its bucket's midpoint, clamped to [min, max]: relative error at most 1/128 (0.8%).
 * Octaves are allocated on first use (512 bytes each), so a histogram is a few kB at most.
 * min, max, count and sum are always exact.
 *
 * Percentile convention (the one of llvm-xray account): the value of rank floor(p * count)
 * (0-based) in ascending order, clamped to count - 1; so p50 of {1, 2} is 2. */
#ifndef EVT_ANALYSIS_HIST_H
#define EVT_ANALYSIS_HIST_H

#include <stdint.h>

#define EVT_HIST_EXACT   256 /* samples kept exactly before switching to buckets */
#define EVT_HIST_SUB      64 /* sub-buckets per octave */
#define EVT_HIST_OCTAVES  59 /* octave 0: values 0..63; octave k >= 1: highest bit 5 + k */

typedef struct evt_hist {
    uint64_t count;   /* values added */
    uint64_t sum;     /* their sum (saturates at UINT64_MAX) */
    uint64_t min, max;
    uint64_t *exact;  /* the first EVT_HIST_EXACT values (while count <= EVT_HIST_EXACT) */
    uint64_t *oct[EVT_HIST_OCTAVES]; /* bucket counts per octave, allocated on use */
    int bucketed;     /* 1 once values have moved into the buckets */
    int sorted;       /* exact[] is sorted (set by evt_hist_pct) */
} evt_hist;

void evt_hist_init(evt_hist *h);
void evt_hist_free(evt_hist *h);
/* Add one value; returns 0 when out of memory (the value is then counted in min/max/sum only). */
int evt_hist_add(evt_hist *h, uint64_t v);
/* Percentile p in [0, 1] per the convention above; 0 when empty. */
uint64_t evt_hist_pct(evt_hist *h, double p);
/* 1 while percentiles are exact (count <= EVT_HIST_EXACT). */
int evt_hist_is_exact(const evt_hist *h);

#endif

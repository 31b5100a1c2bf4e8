/* Log-linear latency histogram (see hist.h for layout and error bound). */
#include "host/analyses/hist.h"

#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"

void evt_hist_init(evt_hist *h) { memset(h, 0, sizeof *h); }

void evt_hist_free(evt_hist *h)
{
    evt_free(h->exact);
    for (int i = 0; i < EVT_HIST_OCTAVES; i++) evt_free(h->oct[i]);
    memset(h, 0, sizeof *h);
}

static int msb_(uint64_t v)
{
    int e = 0;
    while (v >>= 1) e++;
    return e;
}

/* Octave and sub-bucket of v. */
static void where_(uint64_t v, int *oc, int *sub)
{
    if (v < EVT_HIST_SUB) { *oc = 0; *sub = (int)v; return; }
    int e = msb_(v);               /* 6..63 */
    *oc = e - 5;
    *sub = (int)((v >> (e - 6)) & (EVT_HIST_SUB - 1));
}

/* Lower bound and width of a bucket. */
static void bounds_(int oc, int sub, uint64_t *lo, uint64_t *width)
{
    if (oc == 0) { *lo = (uint64_t)sub; *width = 1; return; }
    int e = oc + 5;
    *width = (uint64_t)1 << (e - 6);
    *lo = ((uint64_t)1 << e) + (uint64_t)sub * *width;
}

static int bucket_add_(evt_hist *h, uint64_t v)
{
    int oc, sub;
    where_(v, &oc, &sub);
    if (!h->oct[oc]) {
        h->oct[oc] = evt_calloc(EVT_HIST_SUB, sizeof(uint64_t));
        if (!h->oct[oc]) return 0;
    }
    h->oct[oc][sub]++;
    return 1;
}

int evt_hist_add(evt_hist *h, uint64_t v)
{
    if (h->count == 0 || v < h->min) h->min = v;
    if (h->count == 0 || v > h->max) h->max = v;
    h->sum = (h->sum + v < h->sum) ? UINT64_MAX : h->sum + v;
    h->count++;
    if (!h->bucketed) {
        if (!h->exact) {
            h->exact = evt_malloc(EVT_HIST_EXACT * sizeof(uint64_t));
            if (!h->exact) return 0;
        }
        if (h->count <= EVT_HIST_EXACT) {
            h->exact[h->count - 1] = v;
            h->sorted = 0;
            return 1;
        }
        /* Switch to buckets: move the exact samples over. */
        for (int i = 0; i < EVT_HIST_EXACT; i++)
            if (!bucket_add_(h, h->exact[i])) return 0;
        evt_free(h->exact);
        h->exact = NULL;
        h->bucketed = 1;
    }
    return bucket_add_(h, v);
}

int evt_hist_is_exact(const evt_hist *h) { return !h->bucketed; }

static int cmp_u64_(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t evt_hist_pct(evt_hist *h, double p)
{
    if (h->count == 0) return 0;
    if (p < 0) p = 0;
    uint64_t k = (uint64_t)(p * (double)h->count);
    if (k >= h->count) k = h->count - 1;
    if (!h->bucketed) {
        if (!h->exact) return h->min;
        if (!h->sorted) { qsort(h->exact, (size_t)h->count, sizeof(uint64_t), cmp_u64_); h->sorted = 1; }
        return h->exact[k];
    }
    uint64_t cum = 0;
    for (int oc = 0; oc < EVT_HIST_OCTAVES; oc++) {
        if (!h->oct[oc]) continue;
        for (int sub = 0; sub < EVT_HIST_SUB; sub++) {
            cum += h->oct[oc][sub];
            if (cum > k) {
                uint64_t lo, w;
                bounds_(oc, sub, &lo, &w);
                uint64_t mid = lo + w / 2;
                if (mid < h->min) mid = h->min;
                if (mid > h->max) mid = h->max;
                return mid;
            }
        }
    }
    return h->max;
}

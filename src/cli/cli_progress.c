/* Progress line on stderr (see cli_progress.h). */
#include "cli_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void cli_progress_init(cli_progress *p, const char *what, const evt_reader *r, int quiet)
{
    memset(p, 0, sizeof *p);
    const char *env = getenv("EVT_PROGRESS");
    p->forced = env && strcmp(env, "1") == 0;
    p->on = !quiet && (p->forced || (isatty(2) && !(env && strcmp(env, "0") == 0)));
    p->what = what;
    p->size = r->src.size;
    const char *after = getenv("EVT_PROGRESS_AFTER_MS"); /* tests: show it sooner */
    p->after_ns = after ? strtoull(after, NULL, 10) * 1000000u : 1000000000u;
    p->start_ns = p->last_ns = now_ns();
}

static void human(char *b, size_t n, double v)
{
    if (v >= 1e9) snprintf(b, n, "%.2fG", v / 1e9);
    else if (v >= 1e6) snprintf(b, n, "%.2fM", v / 1e6);
    else if (v >= 1e3) snprintf(b, n, "%.1fk", v / 1e3);
    else snprintf(b, n, "%.0f", v);
}

void cli_progress_tick(cli_progress *p, const evt_event *ev)
{
    if (!p->on || (++p->n & 0xffff) != 0) return;
    uint64_t t = now_ns();
    if (!p->forced && t - p->start_ns < p->after_ns) return;
    if (t - p->last_ns < 200000000u && p->drawn) return;
    p->last_ns = t;
    char nb[32], rb[32], bar[24];
    human(nb, sizeof nb, (double)p->n);
    double secs = (double)(t - p->start_ns) / 1e9;
    human(rb, sizeof rb, secs > 0 ? (double)p->n / secs : 0);
    if (p->size && ev->offset <= p->size) {
        int pct = (int)(ev->offset * 100 / p->size);
        int fill = pct / 5;
        for (int i = 0; i < 20; i++) bar[i] = i < fill ? '#' : '-';
        bar[20] = '\0';
        fprintf(stderr, "\revtrace %s: [%s] %3d%%  %s events  %s ev/s ", p->what, bar, pct, nb, rb);
    } else {
        fprintf(stderr, "\revtrace %s: %s events  %s ev/s ", p->what, nb, rb);
    }
    fflush(stderr);
    p->drawn = 1;
}

void cli_progress_done(cli_progress *p)
{
    if (!p->drawn) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->drawn = 0;
}

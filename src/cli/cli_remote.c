/* The remote live inputs of the commands that read streams: --connect HOST:PORT (a TCP byte
 * stream, e.g. a probe's RTT server) and --gdb HOST:PORT --rtt [ADDR] [--elf FILE] (RTT through a
 * GDB server; host/source_gdb.c). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "evtrace/source_remote.h"
#include "formats/user/user_dec.h"

static void note_gdb(void *user, const char *msg)
{
    const cli_args *a = user;
    if (!a->quiet) fprintf(stderr, "evtrace %s: %s: %s\n", a->cmd, a->gdb, msg);
}

evt_status cli_open_remote(const cli_args *a, evt_source *src, char *err, size_t errlen)
{
    if (a->connect) return evt_source_connect(src, a->connect, a->idle_exit_ms, err, errlen);
    evt_rtt_where w;
    if (!evt_rtt_where_parse(a->rtt, &w)) {
        snprintf(err, errlen, "--rtt needs ADDR (the control block) or ADDR:LEN (a range to search), not '%s'", a->rtt);
        return EVT_ERR_USAGE;
    }
    if (a->elf && !w.has_addr && !w.search_len) { /* --rtt ADDR wins: --elf then names user-event sites only */
        char why[300];
        if (!evt_elf_symbol(a->elf, "_SEGGER_RTT", &w.addr, why, sizeof why)) {
            snprintf(err, errlen, "--elf %s: %s", a->elf, why);
            return EVT_ERR_USAGE;
        }
        w.has_addr = 1;
    }
    return evt_source_gdb_rtt(src, a->gdb, &w, a->idle_exit_ms, note_gdb, (void *)a, err, errlen);
}

int cli_remote_elf_sites(cli_args *a)
{
    if (!a->gdb || !a->elf) return 0;
    /* the readers' own test of the file (user_elf_host.c): sites in a section .evt_user */
    evt_user_dec *d = evt_user_dec_new();
    char err[256];
    int sites = d && evt_user_dec_load_elf(d, a->elf, err, sizeof err) == 0;
    evt_user_dec_free(d);
    return sites ? cli_set_reader_opt(a, "elf", a->elf) : 0;
}

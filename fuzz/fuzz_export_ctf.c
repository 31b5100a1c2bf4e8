/* libFuzzer target of the ctf exporter fed from a reader decoding the input (fuzz_export.h). The
 * directory it writes is checked: a `metadata` file starting with the CTF 1.8 signature, and
 * `stream_N` files (CPU N) made of whole packets (magic, stream_instance_id = cpu_id = N,
 * packet_seq_num 0, 1, 2..., content_size == packet_size >= the 84-byte header, timestamp_begin
 * <= timestamp_end, events_discarded never decreasing) that tile the file exactly (the layout
 * src/host/exporters/ctf.h draws). */
#include <dirent.h>
#include <stdlib.h>
#include "fuzz_export.h"
#include "formats/common/bytes.h"

#define CTF_HDR 84
#define CTF_SIG "/* CTF 1.8 */"

static void check_stream(const char *path, unsigned long id)
{
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    uint8_t h[CTF_HDR];
    uint64_t prev_discarded = 0, seq = 0;
    for (;;) {
        size_t n = fread(h, 1, CTF_HDR, f);
        if (n == 0) break;
        if (n != CTF_HDR) abort(); /* a partial packet header */
        uint64_t content = evt_ld_u64le(h + 48), packet = evt_ld_u64le(h + 56);
        uint64_t discarded = evt_ld_u64le(h + 72);
        if (evt_ld_u32le(h) != 0xC1FC1FC1u || evt_ld_u64le(h + 24) != id || evt_ld_u32le(h + 80) != id) abort();
        if (evt_ld_u64le(h + 64) != seq++) abort();               /* packet_seq_num */
        if (content != packet || packet % 8 || packet / 8 < CTF_HDR) abort();
        if (evt_ld_u64le(h + 32) > evt_ld_u64le(h + 40)) abort(); /* timestamp_begin > end */
        if (discarded < prev_discarded) abort();                  /* cumulative count went down */
        prev_discarded = discarded;
        if (fseeko(f, (off_t)(packet / 8 - CTF_HDR), SEEK_CUR) != 0) abort(); /* past the end: see below */
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || ftello(f) != st.st_size) abort(); /* packets tile the file */
    fclose(f);
}

static void check_dir(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/metadata", dir);
    FILE *m = fopen(p, "rb");
    if (!m) abort();
    char sig[sizeof CTF_SIG] = "";
    if (fread(sig, 1, sizeof CTF_SIG - 1, m) != sizeof CTF_SIG - 1 || strcmp(sig, CTF_SIG) != 0) abort();
    fclose(m);
    DIR *d = opendir(dir);
    if (!d) abort();
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "stream_", 7) != 0) continue;
        char *end;
        unsigned long id = strtoul(e->d_name + 7, &end, 10);
        if (*end) abort();
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        check_stream(p, id);
    }
    closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_export(data, size, "ctf", NULL, check_dir);
    return 0;
}

/* libFuzzer target of the --rkh-config parser (rkh_cfg_load, src/formats/rkh/rkh_cfg_host.c): the
 * input is the rkhcfg.h-style file, written to a tmpfs scratch file the parser opens. The sizes it
 * sets must stay within what the RKH reader allows. A TCFG record from the input's first 14
 * bytes is applied over the result as the reader does. */
#include <stdlib.h>
#include "fuzz_common.h"
#include "formats/rkh/rkh_cfg_host.h"

static int size_ok(unsigned n) { return n == 1 || n == 2 || n == 4; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch_path(".rkhcfg.h");
    if (fuzz_write_file(path, data, size) != 0) return 0;
    rkh_cfg c;
    rkh_cfg_default(&c);
    char err[256];
    if (rkh_cfg_load(&c, path, err, sizeof err) == 0) {
        if (!size_ok(c.sz_sig) || !size_ok(c.sz_ts) || !size_ok(c.sz_ptr) || !size_ok(c.sz_fun) ||
            !size_ok(c.sz_ntimer) || !size_ok(c.sz_nblock) || !size_ok(c.sz_nelem) ||
            !size_ok(c.sz_esize) || !size_ok(c.sz_bsize))
            abort();
    } else if (!err[0]) {
        abort(); /* a failure always says why */
    }
    if (size >= 14) rkh_cfg_from_tcfg(&c, data);
    fuzz_remove(path);
    return 0;
}

/* libFuzzer target of the .etl reader through the public reader API (fuzz_reader.h: open from
 * memory, pull every event, info JSON and text). The XPRESS decompressor has its own target
 * (fuzz_xpress.c). */
#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, "etw");
    return 0;
}

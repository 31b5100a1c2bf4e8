/* libFuzzer target of the XRay reader (FDR v1-v5, basic v1-v3) through the public reader API
 * (fuzz_reader.h: open from memory, pull every event, info JSON and text). */
#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, "xray");
    return 0;
}

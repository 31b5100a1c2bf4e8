/* libFuzzer target of the perfetto exporter fed from a reader decoding the input (fuzz_export.h). */
#include "fuzz_export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_export(data, size, "perfetto", NULL, NULL);
    return 0;
}

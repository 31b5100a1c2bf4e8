/* libFuzzer target of the RKH stream reader through the public reader API
 * (fuzz_reader.h: open from memory, pull every event, info JSON and text), and with auto-detection. */
#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, "rkh");
    fuzz_read_all(data, size, NULL); /* every probe sees the bytes too */
    return 0;
}

/* libFuzzer target of the sqlite exporter fed from a reader decoding the input (fuzz_export.h);
 * the database is SQLite's :memory:, so every iteration stays off the disk. */
#include "fuzz_export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_export(data, size, "sqlite", ":memory:", NULL);
    return 0;
}

# Readers read through the bounded cursor: a grep for the raw loads and input-pointer arithmetic
# that issue 10 removed from the readers (tests/formats/common/raw_reads_check.py).
add_test(NAME formats/common/raw_reads
         COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/common/raw_reads_check.py ${PROJECT_SOURCE_DIR})
set_tests_properties(formats/common/raw_reads PROPERTIES LABELS unit TIMEOUT 60)

# SQLite exporter + `evtrace query`: schema (tl_tables.def + version-1 tables), rows vs `evtrace dump
# --json`, contexts, objects, lost ranges, ISR/slice counts and queries on every readable sample and
# on a synthetic trace.
add_test(NAME host/export_sqlite
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/sqlite_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${PROJECT_SOURCE_DIR}/tests/host/data
          ${PROJECT_SOURCE_DIR}/src/host/timeline/tl_tables.def)
set_tests_properties(host/export_sqlite PROPERTIES LABELS unit TIMEOUT 300)

# Every example query of docs/sqlite.md, run and its answer checked: on the real TraceX demo trace
# against figures from `evtrace dump --json` / `stats --json` (this script), and on a constructed
# trace with answers known by construction (tests/host/exporters/test_sqlite_queries.c).
add_test(NAME host/sqlite_queries
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/sqlite_queries.py $<TARGET_FILE:evtrace>
          ${PROJECT_SOURCE_DIR}/docs/sqlite.md ${EVT_TEST_DATA_DIR}/threadx_tracex/demo_threadx.trx)
set_tests_properties(host/sqlite_queries PROPERTIES LABELS unit TIMEOUT 300)

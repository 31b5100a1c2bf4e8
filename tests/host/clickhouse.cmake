# The ClickHouse export against a real Debian clickhouse-server (started in a temporary folder by
# tests/support/clickhouse_server.py, stopped by pid): load + documented queries vs SQLite and
# stats, two shards behind Distributed tables, loud failures, HTTPS with a password user (secure). Server binary missing: skipped
# (exit 77) on a workstation, a failure under CI=true. Label clickhouse: part of `make test` /
# `make check` (the normal build), not of the sanitizer stages.
set(EVT_CH_CHECK ${PROJECT_SOURCE_DIR}/tests/host/clickhouse_check.py)
foreach(mode load cluster failures secure)
  add_test(NAME host/clickhouse_${mode}
    COMMAND python3 ${EVT_CH_CHECK} ${mode} $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR}
            ${PROJECT_SOURCE_DIR}/docs/clickhouse.md)
  set_tests_properties(host/clickhouse_${mode} PROPERTIES LABELS clickhouse TIMEOUT 1800
    SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endforeach()

# CI-only oracle (tests/host/perfetto_upstream_check.py): the Perfetto export decoded against
# Perfetto's upstream schema in the development-only folder. Declared here because only tests/repo
# may name that folder; outside CI it reports "skipped" (exit 77) and says why, under CI=true a
# missing schema or protoc fails.
set(EVT_PERFETTO_UPSTREAM_UTK "")
if(TARGET utk_demo)
  set(EVT_PERFETTO_UPSTREAM_UTK $<TARGET_FILE:utk_demo>)
endif()
add_test(NAME repo/perfetto_upstream_schema
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/perfetto_upstream_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${PROJECT_SOURCE_DIR}/tests/host/data ${EVT_SHARED_DIR}/perfetto
          ${EVT_PERFETTO_UPSTREAM_UTK})
set_tests_properties(repo/perfetto_upstream_schema PROPERTIES LABELS unit TIMEOUT 300 SKIP_RETURN_CODE 77)

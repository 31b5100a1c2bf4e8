# Perfetto exporter oracle: protoc (protobuf-compiler) decodes the output of every readable sample,
# two synthetic traces and the μT-Kernel demo's trace against tests/host/data/perfetto_subset.proto;
# sched_switch / sched_waking are checked against an independent model of the scheduling rules,
# slices, instants, flows, counters and losses against `evtrace dump --json`. Fails if protoc is
# missing.
set(EVT_PERFETTO_UTK "")
if(TARGET utk_demo)
  set(EVT_PERFETTO_UTK $<TARGET_FILE:utk_demo>)
endif()
add_test(NAME host/export_perfetto
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/perfetto_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${PROJECT_SOURCE_DIR}/tests/host/data ${EVT_PERFETTO_UTK})
set_tests_properties(host/export_perfetto PROPERTIES LABELS unit TIMEOUT 300)

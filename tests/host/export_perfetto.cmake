# Perfetto exporter oracle: protoc (protobuf-compiler) decodes the output of every readable sample;
# tracks, slices and instants are checked against `evtrace dump --json`. Fails if protoc is missing.
add_test(NAME host/export_perfetto
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/host/perfetto_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${CMAKE_SOURCE_DIR}/tests/host/data)
set_tests_properties(host/export_perfetto PROPERTIES LABELS unit TIMEOUT 300)

# Clock model oracle (tests/host/clock_check.py): ThreadX, RKH, ETW, XRay and synthetic traces
# converted to every output with a known rate (the format's or --clock-hz) agree in ns on the
# first/last timestamps and three durations; without a rate every output says ticks. Needs
# protoc and babeltrace2 (fails when either is missing).
add_test(NAME host/clock_model
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/clock_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${PROJECT_SOURCE_DIR}/tests/host/data)
set_tests_properties(host/clock_model PROPERTIES LABELS unit TIMEOUT 300)

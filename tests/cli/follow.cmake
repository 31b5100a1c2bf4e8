# evtrace dump --follow: growing file, stdin, TCP on loopback (python3 driver).
add_test(NAME cli/dump_follow
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_follow.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(cli/dump_follow PROPERTIES LABELS unit TIMEOUT 120)

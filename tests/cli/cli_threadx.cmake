# evtrace command behaviour on ThreadX input: exit codes, help, damage, big-endian (python3 driver).
add_test(NAME cli/threadx_cli
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/cli/check_cli_threadx.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(cli/threadx_cli PROPERTIES LABELS unit TIMEOUT 120)

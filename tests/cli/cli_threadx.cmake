# evtrace command behaviour on ThreadX input: exit codes, help, damage, big-endian (python3 driver).
add_test(NAME cli/threadx_cli
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_cli_threadx.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(cli/threadx_cli PROPERTIES LABELS unit TIMEOUT 120)
# The man page and bash completion made from the one option table (issue 31 item 5).
add_test(NAME cli/man_and_completion COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_doc.py $<TARGET_FILE:evtrace>)
set_tests_properties(cli/man_and_completion PROPERTIES LABELS unit TIMEOUT 120)

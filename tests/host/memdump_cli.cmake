# Intel HEX / S-record dumps of real TXTB buffers (written by binutils objcopy) decode exactly as the
# .trx; --base-address / --offset; damaged dumps fail with offsets (bash driver).
add_test(NAME host/memdump_cli
  COMMAND bash ${PROJECT_SOURCE_DIR}/tests/host/check_memdump_cli.sh $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR}
          ${PROJECT_BINARY_DIR}/memdump-cli-test)
set_tests_properties(host/memdump_cli PROPERTIES LABELS unit TIMEOUT 120)

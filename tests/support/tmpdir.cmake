# The test helpers' temporary directory is removed when a test exits (kept with
# EVT_TEST_KEEP_TMP=1): tests/support/check_tmpdir.py on a test that writes a file there.
add_test(NAME support/tmpdir_removed
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/support/check_tmpdir.py $<TARGET_FILE:test_utk_scenario> utk_scenario.trx)
set_tests_properties(support/tmpdir_removed PROPERTIES LABELS unit TIMEOUT 120)

# The test data lives in the repository (tests/data): its SHA256SUMS hold, no test names the
# development-only shared/ folder, and (CI-only oracle) the copies equal their origin there. The
# oracle reports "skipped" (exit 77) without that folder, and fails instead when CI=true.
add_test(NAME repo/data_sums
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/repo/check_data.py sums ${EVT_TEST_DATA_DIR})
add_test(NAME repo/data_matches_origin
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/repo/check_data.py origin ${EVT_TEST_DATA_DIR} ${EVT_SHARED_DIR})
set_tests_properties(repo/data_sums repo/data_matches_origin PROPERTIES LABELS unit TIMEOUT 60)
set_tests_properties(repo/data_matches_origin PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME repo/no_shared_refs
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/repo/check_data.py refs ${PROJECT_SOURCE_DIR})
set_tests_properties(repo/no_shared_refs PROPERTIES LABELS unit TIMEOUT 60)

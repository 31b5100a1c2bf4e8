# The analyses of `stats --json` on every readable sample (tests/host/analyses/check_analyses.py):
# keys of docs/exports.md and docs/analyses.md, load windows adding up to the totals, and on the
# ThreadX samples ISR response, stack usage, queue depth and mutex waits cross-checked against
# the reader's own events (dump --json); --window handling.
add_test(NAME host/analyses_samples
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/analyses/check_analyses.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR})
set_tests_properties(host/analyses_samples PROPERTIES LABELS unit TIMEOUT 300)

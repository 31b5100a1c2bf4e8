# The one timeline in every output (issue 11, "Done when"; tests/host/timeline_agree.py): every
# readable sample, the μT-Kernel scenario trace (written by test_utk_scenario), synthetic traces
# with losses and ThreadX with and without --clock-hz, converted to SQLite, Perfetto, Chrome JSON,
# CTF, the HTML report and `stats --json`: per context the running intervals, switch-ins and CPU
# time, every ISR interval, slice counts and totals per name and the lost counts agree (rules in
# docs/exports.md, "One timeline in every output"). Needs protoc and babeltrace2 (fails when
# either is missing).
add_test(NAME host/timeline_agree
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/timeline_agree.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${PROJECT_SOURCE_DIR}/tests/host/data $<TARGET_FILE:test_utk_scenario>)
set_tests_properties(host/timeline_agree PROPERTIES LABELS unit TIMEOUT 600)

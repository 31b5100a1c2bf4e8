# A trace that records no scheduling (XRay, ETW as read) has no scheduling rows and no CPU time in
# any output (info, SQLite, Chrome, CTF, Perfetto, report, stats); a ThreadX trace keeps them
# (tests/host/nosched_check.py). Needs babeltrace2.
add_test(NAME host/no_invented_scheduling
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/nosched_check.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(host/no_invented_scheduling PROPERTIES LABELS unit TIMEOUT 300)

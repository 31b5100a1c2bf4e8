# User events in every output (tests/host/user_exports_check.py): the make-run demo's printf
# lines, value channel, intervals and state machine in dump, Chrome JSON, Perfetto and SQLite.
add_test(NAME host/user_events_exports
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/user_exports_check.py $<TARGET_FILE:evtrace>
          $<TARGET_FILE:demo_threadx> ${PROJECT_SOURCE_DIR}/tests/host/data)
set_tests_properties(host/user_events_exports PROPERTIES LABELS unit TIMEOUT 120)
# The same user events through the ETW recorder (.etl, tests/formats/user/test_user_etw.c FILE).
add_test(NAME host/user_events_exports_etw
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/user_exports_check.py $<TARGET_FILE:evtrace>
          $<TARGET_FILE:test_user_etw> ${PROJECT_SOURCE_DIR}/tests/host/data demo.etl)
set_tests_properties(host/user_events_exports_etw PROPERTIES LABELS unit TIMEOUT 120)

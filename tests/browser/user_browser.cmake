# User events in the HTML report (tests/browser/user_browser.py): the make-run demo's printf text
# in the event list, its value, interval and state lanes drawn. Fails (never skips) without chromium.
add_test(NAME browser/report_user_lanes
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/browser/user_browser.py $<TARGET_FILE:evtrace>
          $<TARGET_FILE:demo_threadx> ${PROJECT_BINARY_DIR}/artifacts/report)
set_tests_properties(browser/report_user_lanes PROPERTIES LABELS unit TIMEOUT 300)
# The same user events through the ETW recorder (.etl, tests/formats/user/test_user_etw.c FILE).
add_test(NAME browser/report_user_lanes_etw
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/browser/user_browser.py $<TARGET_FILE:evtrace>
          $<TARGET_FILE:test_user_etw> ${PROJECT_BINARY_DIR}/artifacts/report-etw demo.etl)
set_tests_properties(browser/report_user_lanes_etw PROPERTIES LABELS unit TIMEOUT 300)

# HTML report: headless Chromium loads the report of every readable sample with no console
# message, the page's self-check passes, and a screenshot shows the timeline. Fails if chromium
# is missing.
add_test(NAME host/report_html
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/host/report_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${CMAKE_SOURCE_DIR}/tests/host/data)
set_tests_properties(host/report_html PROPERTIES LABELS unit TIMEOUT 600)

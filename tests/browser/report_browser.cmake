# The HTML report in headless Chromium over the DevTools protocol (tests/browser/report_browser.py):
# every sample loads clean; zoom, click, filter and row click checked on one sample per format;
# the report `make run` writes (the ThreadX demo's trace, in real time); a 1M-event page loads
# and zooms in time. Screenshots: build/<dir>/artifacts/report/*.png.
# Fails (never skips) when chromium is missing.
add_test(NAME browser/report_html
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/browser/report_browser.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${PROJECT_SOURCE_DIR}/tests/host/data ${PROJECT_BINARY_DIR}/artifacts/report
          $<TARGET_FILE:demo_threadx>)
set_tests_properties(browser/report_html PROPERTIES LABELS unit TIMEOUT 900)

# Real .etl files against a real tool: PerfView's own listing of each (events, times, CPUs, payload
# sizes, counts per event name), and a logfile header's EventsLost through every report
# (tests/data/etw_more/README.md; python3 driver).
foreach(s gcevents gcrundownevents)
  add_test(NAME formats/etw/perfview_${s}
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/etw/check_etw_perfview.py perfview $<TARGET_FILE:evtrace>
            ${EVT_TEST_DATA_DIR}/etw_more/perfview_${s}.etl ${EVT_TEST_DATA_DIR}/etw_more/perfview_${s}.baseline.txt)
  set_tests_properties(formats/etw/perfview_${s} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()
add_test(NAME formats/etw/header_events_lost
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/etw/check_etw_perfview.py lost $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR}/etw_more/etl-parser_AMSITrace.etl)
set_tests_properties(formats/etw/header_events_lost PROPERTIES LABELS unit TIMEOUT 60)

# The real RKH streams decode exactly as their answer keys and frame tables (python3 driver).
foreach(s blinky_stock usr_events)
  add_test(NAME formats/rkh/sample_${s}
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/rkh/check_rkh_sample.py $<TARGET_FILE:evtrace>
            ${EVT_TEST_DATA_DIR}/rkh/${s})
  set_tests_properties(formats/rkh/sample_${s} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()
add_test(NAME formats/rkh/damage
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/rkh/check_rkh_damage.py $<TARGET_FILE:evtrace>)
set_tests_properties(formats/rkh/damage PROPERTIES LABELS unit TIMEOUT 120)
foreach(s blinky_stock usr_events)
  add_test(NAME formats/rkh/chrome_${s}
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/rkh/check_rkh_chrome.py $<TARGET_FILE:evtrace>
            ${EVT_TEST_DATA_DIR}/rkh/${s}.bin)
  set_tests_properties(formats/rkh/chrome_${s} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()

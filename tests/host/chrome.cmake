# Chrome JSON export checked against the ThreadX samples' answer keys (python3 driver).
foreach(s threadx_real/nowrap_m32le threadx_tracex/demo_threadx threadx_tracex/demo_netx_udp)
  string(REPLACE "/" "_" tname ${s})
  add_test(NAME host/chrome_export_${tname}
    COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/host/check_chrome.py $<TARGET_FILE:evtrace>
            ${EVT_TEST_DATA_DIR}/${s}.trx ${EVT_TEST_DATA_DIR}/${s}.key.json)
  set_tests_properties(host/chrome_export_${tname} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()

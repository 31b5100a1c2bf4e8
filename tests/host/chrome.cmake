# Chrome JSON export: the ThreadX samples' answer keys, and the same timeline as the scheduling
# model, `stats` and the Perfetto export (python3 driver; protoc decodes the Perfetto side).
foreach(s threadx_real/nowrap_m32le threadx_tracex/demo_threadx threadx_tracex/demo_netx_udp)
  string(REPLACE "/" "_" tname ${s})
  add_test(NAME host/chrome_export_${tname}
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/check_chrome.py $<TARGET_FILE:evtrace>
            ${EVT_TEST_DATA_DIR}/${s}.trx ${EVT_TEST_DATA_DIR}/${s}.key.json ${PROJECT_SOURCE_DIR}/tests/host/data)
  set_tests_properties(host/chrome_export_${tname} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()
foreach(s small weird)
  add_test(NAME host/chrome_export_syn_${s}
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/check_chrome.py $<TARGET_FILE:evtrace>
            ${PROJECT_SOURCE_DIR}/tests/host/data/${s}.syn - ${PROJECT_SOURCE_DIR}/tests/host/data)
  set_tests_properties(host/chrome_export_syn_${s} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()

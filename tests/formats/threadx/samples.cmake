# The real ThreadX buffers decode exactly as their independent answer keys (python3 driver).
foreach(s threadx_real/nowrap_m32le threadx_tracex/demo_threadx threadx_tracex/demo_filex
          threadx_tracex/demo_netx_tcp threadx_tracex/demo_netx_udp)
  string(REPLACE "/" "_" tname ${s})
  add_test(NAME formats/threadx/sample_key_${tname}
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/threadx/check_sample_key.py
            $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR}/${s})
  set_tests_properties(formats/threadx/sample_key_${tname} PROPERTIES LABELS unit TIMEOUT 60)
endforeach()

# A real ThreadX run against the counters ThreadX kept in it (tests/data/threadx_counters).
add_test(NAME formats/threadx/real_counters
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/threadx/check_counters.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR}/threadx_counters/txcheck_m64le.trx
          ${EVT_TEST_DATA_DIR}/threadx_counters/txcheck_m64le.counters.json)
set_tests_properties(formats/threadx/real_counters PROPERTIES LABELS unit TIMEOUT 60)

# A real ThreadX run against the priorities ThreadX held after each priority change of a thread
# that runs at an inherited priority (tests/data/threadx_counters/README.md).
add_test(NAME formats/threadx/real_priorities
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/threadx/check_priorities.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR}/threadx_counters/txprio_m64le.trx
          ${EVT_TEST_DATA_DIR}/threadx_counters/txprio_m64le.readings.json)
set_tests_properties(formats/threadx/real_priorities PROPERTIES LABELS unit TIMEOUT 60)

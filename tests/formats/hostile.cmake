# Bounded work on hostile inputs (issue 10): one test per case of tests/formats/hostile_check.py,
# each a time (10 s) and peak-RSS (256 MB, plain build only) budget on evtrace run in a child.
foreach(_case xray_threads xray_thread_limit xray_deep_stack xray_basic_threads
              rkh_symbols rkh_renames rkh_symbol_cap
              threadx_sparse threadx_objects threadx_unwritten etw_buffers etw_providers
              synthetic_events elf_large elf_device stream_buffer)
  add_test(NAME formats/hostile_${_case}
           COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/formats/hostile_check.py $<TARGET_FILE:evtrace> "${EVT_SANITIZE}" ${EVT_TEST_DATA_DIR} ${_case})
  set_tests_properties(formats/hostile_${_case} PROPERTIES LABELS unit TIMEOUT 180)
endforeach()

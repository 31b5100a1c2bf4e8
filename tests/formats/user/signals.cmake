# The signal-handler tests of the user events (test_user_signals_*_mt) run alone: each keeps both
# CPUs of a 2-core machine busy with threads and a high signal rate, and a second one beside it
# only slows both (the RKH ones were looped beside a parallel compiler: docs/user-events.md,
# "Signal handlers").
# rkh_owned: worker 0 owns the recorder (EVT_RKH_OWNED=1: the recorder and its user-event carrier
# compiled into the test, as tests/formats/rkh/switches.cmake does; the library's are not linked).
add_executable(test_user_signals_rkh_owned_mt ${PROJECT_SOURCE_DIR}/tests/formats/user/user_signals_rkh_owned_mt.c
  ${PROJECT_SOURCE_DIR}/src/formats/rkh/rkh_enc.c ${PROJECT_SOURCE_DIR}/src/formats/rkh/rkh_user_enc.c)
target_compile_definitions(test_user_signals_rkh_owned_mt PRIVATE EVT_RKH_OWNED=1)
target_link_libraries(test_user_signals_rkh_owned_mt PRIVATE evt_test_support)
add_dependencies(test_user_signals_rkh_owned_mt evtrace)
add_test(NAME formats/user/test_user_signals_rkh_owned_mt COMMAND test_user_signals_rkh_owned_mt)
set_tests_properties(formats/user/test_user_signals_rkh_owned_mt PROPERTIES TIMEOUT 300 LABELS concurrency
  SKIP_RETURN_CODE 77 ENVIRONMENT "EVT_BIN=$<TARGET_FILE:evtrace>")
foreach(t etw rkh rkh_app rkh_owned txtb xray)
  if(TEST formats/user/test_user_signals_${t}_mt)
    set_tests_properties(formats/user/test_user_signals_${t}_mt PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()

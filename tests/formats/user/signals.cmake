# The signal-handler tests of the user events (test_user_signals_*_mt) run alone: each keeps both
# CPUs of a 2-core machine busy with threads and a high signal rate, and a second one beside it
# only slows both (the RKH ones were looped beside a parallel compiler: docs/user-events.md,
# "Signal handlers").
foreach(t etw rkh rkh_app rkh_owned txtb xray)
  if(TEST formats/user/test_user_signals_${t}_mt)
    set_tests_properties(formats/user/test_user_signals_${t}_mt PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()

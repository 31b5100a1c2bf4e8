# The signal-handler tests of the user events (test_user_signals_*_mt) run alone: with another
# loaded test beside them on a 2-core machine the RKH one still drops (and counts) a burst of
# handler lines in about 1 run of 40 (docs/user-events.md, "Signal handlers"), which the test
# rightly fails on.
foreach(t etw rkh txtb xray)
  if(TEST formats/user/test_user_signals_${t}_mt)
    set_tests_properties(formats/user/test_user_signals_${t}_mt PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()

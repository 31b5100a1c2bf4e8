# What a thread is blocked on and who woke it, the same in SQLite (thread_states.object, flows,
# wakeups), Perfetto ("blocked on <object>" slices, wake flows with object_id, sched_waking) and
# Chrome JSON (blocked "X" slices, wake flows with args.object_id), on the recorded FreeRTOS traces
# (a mutex with inheritance, queue and event-group waits; TXTB snapshot and RKH stream).
add_test(NAME host/blocked_on_exports
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/blocked_on_check.py $<TARGET_FILE:evtrace>
          ${PROJECT_SOURCE_DIR}/tests/host/data
          ${EVT_TEST_DATA_DIR}/freertos/posix_snapshot.trx ${EVT_TEST_DATA_DIR}/freertos/posix_stream.rkh)
set_tests_properties(host/blocked_on_exports PROPERTIES LABELS unit TIMEOUT 120)

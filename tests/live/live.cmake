# evtrace live with real parts (tests/live/check_live.py): the Cortex-M example's RTT build under
# qemu-system-arm streamed with `evtrace live --gdb` (QEMU's gdbstub) into headless Chromium (tasks
# shown while the firmware runs, lag <= 1 s measured against the target's clock, the file equal to a
# GDB snapshot of the ring and to the firmware's counts), and `evtrace live --connect` against a
# replay at 1 M events/s (file complete, page responsive, memory bounded). Screenshots:
# build/<dir>/artifacts/live/*.png. Fails (never skips) when a tool is missing. In a sanitizer build
# (an -O0 instrumented evtrace) the functional checks are the same and the time limits are doubled.
if(EVT_SANITIZE)
  set(_evt_live_build ${EVT_SANITIZE})
else()
  set(_evt_live_build normal)
endif()
add_test(NAME live/qemu_rtt
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/live/check_live.py ${PROJECT_SOURCE_DIR}
          ${PROJECT_BINARY_DIR}/live-test $<TARGET_FILE:evtrace> ${PROJECT_BINARY_DIR}/artifacts/live
          ${_evt_live_build})
# Alone: it measures how far the page lags the running target (at most 1 s), and a second test
# loading both CPUs of a 2-core machine beside it pushed that to 1.02 s on 28 Nov.
set_tests_properties(live/qemu_rtt PROPERTIES LABELS unit TIMEOUT 300 RUN_SERIAL TRUE)

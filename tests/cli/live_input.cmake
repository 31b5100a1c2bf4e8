# Live inputs (issue 14 item 6): FIFO end of writer, --idle-exit on FIFO / pty / socket, --serial on
# a pty pair, --listen HOST:PORT on 127.0.0.1, a followed file that shrinks (python3 driver).
add_test(NAME cli/live_input
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_live_input.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(cli/live_input PROPERTIES LABELS unit TIMEOUT 120)
# Live captures survive ^C / SIGTERM / SIGHUP through a pty; a second signal abandons; SIGPIPE
# leaves no .tmp- (issue 31 item 1; python3 driver, all runs in parallel).
add_test(NAME cli/live_signals
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_live_signals.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(cli/live_signals PROPERTIES LABELS unit TIMEOUT 120)
# Inputs that are not regular files (issue 31 item 5): FIFOs and <(...) read as streams, devices
# and directories named plainly; formats that need the whole trace buffered from a pipe (ThreadX,
# XRay), a truncated ThreadX buffer decodes what it holds; output kinds from OUT's extension with
# a warning on a --to mismatch; --begin/--end on every command that reads a trace (python3 driver).
add_test(NAME cli/inputs_outputs
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/cli/check_inputs_outputs.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(cli/inputs_outputs PROPERTIES LABELS unit TIMEOUT 120)

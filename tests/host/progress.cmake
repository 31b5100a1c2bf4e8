# Progress line on stderr only when it is a terminal (pty via script(1)), erased at the end.
add_test(NAME host/progress_tty COMMAND bash ${PROJECT_SOURCE_DIR}/tests/host/progress_check.sh $<TARGET_FILE:evtrace>)
set_tests_properties(host/progress_tty PROPERTIES LABELS unit TIMEOUT 300)

# cmake -DEVTRACE=... -DARG=... -DOUT=... -P run_to_file.cmake: `EVTRACE help ARG` into OUT (the man
# page and the bash completion, made from the command's own option table; cmake/docs.cmake).
execute_process(COMMAND ${EVTRACE} help ${ARG} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${EVTRACE} help ${ARG} failed: ${rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})

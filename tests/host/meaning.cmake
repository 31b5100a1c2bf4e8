# The timeline's meaning records on real RTOS hook traces (tests/host/check_inheritance.py):
# bounded inversions = the kernel's own inheritance count by the trace's priority order, the
# priorities / wakeups tables, waits blocked on the mutex. The recorded FreeRTOS traces on every
# clone; with a FreeRTOS kernel, fresh runs through both hooks backends (TXTB and RKH).
add_test(NAME host/inheritance_recorded
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/check_inheritance.py data $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR}/freertos)
set_tests_properties(host/inheritance_recorded PROPERTIES LABELS unit TIMEOUT 120)
if(TARGET freertos_posix_demo)
  add_test(NAME host/inheritance_freertos_backends
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/check_inheritance.py demo $<TARGET_FILE:evtrace>
            $<TARGET_FILE:freertos_posix_demo> 1)
  set_tests_properties(host/inheritance_freertos_backends PROPERTIES LABELS unit TIMEOUT 300 RUN_SERIAL TRUE)
endif()

# FreeRTOS integration (examples/freertos-posix, examples/freertos-cortex-m3, check_freertos*.py): with a
# FreeRTOS kernel (FREERTOS_KERNEL_PATH) the examples' counters against `evtrace stats` for both
# transports (POSIX port; Cortex-M3 port under QEMU) and the simulator stress (equal-priority tasks
# recording with the tick on must end); without it one test that skips saying why (fails under
# CI=true); normal build only. With FREERTOS_KERNEL_V10_PATH also against FreeRTOS V10.4. The recorded traces in tests/data/freertos are checked on every clone.
set(EVT_FR_CHECK ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/check_freertos.py)
if(TARGET freertos_posix_demo)
  foreach(mode snapshot stream)
    add_test(NAME kernel/freertos/counters_${mode}
      COMMAND python3 ${EVT_FR_CHECK} counters $<TARGET_FILE:evtrace> $<TARGET_FILE:freertos_posix_demo> ${mode} 1)
  endforeach()
  add_test(NAME kernel/freertos/posix_stress
    COMMAND python3 ${EVT_FR_CHECK} stress $<TARGET_FILE:freertos_posix_demo> $<TARGET_FILE:evtrace> 3 3)
  set_tests_properties(kernel/freertos/counters_snapshot kernel/freertos/counters_stream kernel/freertos/posix_stress
    PROPERTIES LABELS unit TIMEOUT 120 RUN_SERIAL TRUE)
  # The Cortex-M3 example under QEMU (mps2-an385): GDB snapshot and UART stream against the counters
  # (check_freertos_cm3.py; a missing cross tool, QEMU or GDB is a failure, as ports/cortexm_example).
  add_test(NAME kernel/freertos/cortex_m3_qemu
    COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/check_freertos_cm3.py ${PROJECT_SOURCE_DIR}
            ${PROJECT_BINARY_DIR}/freertos-cm3 $<TARGET_FILE:evtrace> ${FREERTOS_KERNEL_PATH})
  set_tests_properties(kernel/freertos/cortex_m3_qemu PROPERTIES LABELS unit TIMEOUT 600)
  # FreeRTOS V10.4 (FREERTOS_KERNEL_V10_PATH, optional): the same counters checks, on the POSIX port
  # and on the Cortex-M3 port under QEMU (building against a V10.4 kernel).
  if(TARGET freertos_posix_demo_v10)
    foreach(mode snapshot stream)
      add_test(NAME kernel/freertos/v10_counters_${mode}
        COMMAND python3 ${EVT_FR_CHECK} counters $<TARGET_FILE:evtrace> $<TARGET_FILE:freertos_posix_demo_v10> ${mode} 1 V10.4)
    endforeach()
    add_test(NAME kernel/freertos/v10_cortex_m3_qemu
      COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/check_freertos_cm3.py ${PROJECT_SOURCE_DIR}
              ${PROJECT_BINARY_DIR}/freertos-cm3-v10 $<TARGET_FILE:evtrace> ${FREERTOS_KERNEL_V10_PATH})
    set_tests_properties(kernel/freertos/v10_counters_snapshot kernel/freertos/v10_counters_stream
      PROPERTIES LABELS unit TIMEOUT 120 RUN_SERIAL TRUE)
    set_tests_properties(kernel/freertos/v10_cortex_m3_qemu PROPERTIES LABELS unit TIMEOUT 600)
  endif()
  # Without it nothing is added (a test that skips would skip in CI, which has no V10.4 kernel):
  # V10.4 is checked on every clone by the V10.4.6 runs in tests/data/freertos (recorded_traces).
elseif(EVT_SANITIZE STREQUAL "")
  add_test(NAME kernel/freertos/kernel_needed COMMAND python3 ${EVT_FR_CHECK} nokernel)
  set_tests_properties(kernel/freertos/kernel_needed PROPERTIES LABELS unit TIMEOUT 30 SKIP_RETURN_CODE 77)
endif()
add_test(NAME kernel/freertos/recorded_traces
  COMMAND python3 ${EVT_FR_CHECK} data $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR}/freertos)
set_tests_properties(kernel/freertos/recorded_traces PROPERTIES LABELS unit TIMEOUT 60)

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
  # What the applications below share (tests/support/evt_freertos_test.c: FreeRTOS's counters kept in
  # the trace hooks their FreeRTOSConfig.h calls, the recording, the counters line); no FreeRTOS header.
  add_library(evt_freertos_test STATIC ${PROJECT_SOURCE_DIR}/tests/support/evt_freertos_test.c)
  target_include_directories(evt_freertos_test PUBLIC ${PROJECT_SOURCE_DIR}/tests/support)
  target_link_libraries(evt_freertos_test PUBLIC evtrace_freertos)
  # An outsider's application (outsider/: event groups, notifications, buffers, timers, suspension,
  # priorities, inheritance, deletion, ISR work) against FreeRTOS's counters, both transports, three
  # scheduler settings (preemption/time slicing 1/1, 1/0, 0/1), and a wrapped snapshot's accounting.
  set(fr ${FREERTOS_KERNEL_PATH})
  set(px ${fr}/portable/ThirdParty/GCC/Posix)
  foreach(v 11 10 01)
    string(SUBSTRING ${v} 0 1 pre)
    string(SUBSTRING ${v} 1 1 slice)
    add_library(freertos_outsider_kernel_${v} STATIC ${fr}/tasks.c ${fr}/queue.c ${fr}/list.c ${fr}/timers.c
      ${fr}/event_groups.c ${fr}/stream_buffer.c ${fr}/portable/MemMang/heap_3.c ${px}/port.c ${px}/utils/wait_for_event.c)
    target_include_directories(freertos_outsider_kernel_${v} PUBLIC ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/outsider
      ${fr}/include ${px} ${px}/utils)
    target_compile_options(freertos_outsider_kernel_${v} PRIVATE -w) # FreeRTOS's code: its warnings are not ours
    target_compile_definitions(freertos_outsider_kernel_${v} PUBLIC _GNU_SOURCE OUTSIDER_PREEMPTION=${pre}
      OUTSIDER_TIME_SLICING=${slice})
    target_link_libraries(freertos_outsider_kernel_${v} PUBLIC evtrace_freertos evt_freertos_test Threads::Threads)
    add_executable(freertos_outsider_${v} ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/outsider/outsider_app.c)
    target_link_libraries(freertos_outsider_${v} PRIVATE freertos_outsider_kernel_${v} evtrace_freertos)
    foreach(mode snapshot stream)
      add_test(NAME kernel/freertos/outsider_${mode}_${v}
        COMMAND python3 ${EVT_FR_CHECK} outsider $<TARGET_FILE:evtrace> $<TARGET_FILE:freertos_outsider_${v}> ${mode} 1)
      set_tests_properties(kernel/freertos/outsider_${mode}_${v} PROPERTIES LABELS unit TIMEOUT 120 RUN_SERIAL TRUE)
    endforeach()
  endforeach()
  # The matrix application (matrix/): the kernel settings the checks above do not use, against
  # FreeRTOS's counters, both transports. edge: static allocation only, 40 priorities (tasks at
  # 30..37, the timer daemon at 39), one-letter task names, four notification entries, the tick
  # count wrapping during the run, no time slicing; coop: configUSE_PREEMPTION 0, no time slicing.
  # Against V10.4 too when FREERTOS_KERNEL_V10_PATH names one (matrix_*_v10). gap_*: tasks that all
  # wait longer than the trace clock's wrap (gap_app.c), CPU and idle time against FreeRTOS's.
  function(evt_freertos_matrix variant kernel suffix defs)
    set(px ${kernel}/portable/ThirdParty/GCC/Posix)
    set(k freertos_matrix_kernel_${variant}${suffix})
    add_library(${k} STATIC ${kernel}/tasks.c ${kernel}/queue.c ${kernel}/list.c ${kernel}/timers.c
      ${px}/port.c ${px}/utils/wait_for_event.c)
    if(NOT defs MATCHES "MATRIX_STATIC=1") # heap_3 refuses a static-only configuration
      target_sources(${k} PRIVATE ${kernel}/portable/MemMang/heap_3.c)
    endif()
    target_include_directories(${k} PUBLIC ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/matrix ${kernel}/include ${px} ${px}/utils)
    target_compile_options(${k} PRIVATE -w) # FreeRTOS's code: its warnings are not ours
    target_compile_definitions(${k} PUBLIC _GNU_SOURCE ${defs})
    target_link_libraries(${k} PUBLIC evtrace_freertos evt_freertos_test Threads::Threads)
    add_executable(freertos_matrix_${variant}${suffix} ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/matrix/matrix_app.c
      ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/matrix/matrix_memory.c)
    target_compile_options(freertos_matrix_${variant}${suffix} PRIVATE -Wall -Wextra -Werror) # the user's app
    target_link_libraries(freertos_matrix_${variant}${suffix} PRIVATE ${k} evtrace_freertos)
    foreach(mode snapshot stream)
      add_test(NAME kernel/freertos/matrix_${variant}_${mode}${suffix}
        COMMAND python3 ${EVT_FR_CHECK} matrix $<TARGET_FILE:evtrace> $<TARGET_FILE:freertos_matrix_${variant}${suffix}> ${mode} 1)
      set_tests_properties(kernel/freertos/matrix_${variant}_${mode}${suffix} PROPERTIES LABELS unit TIMEOUT 120 RUN_SERIAL TRUE)
    endforeach()
    # gap_app.c on the edge kernel: every task waits three wraps of the trace clock at a time
    if(variant STREQUAL "edge")
      add_executable(freertos_gap${suffix} ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/matrix/gap_app.c
        ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/matrix/matrix_memory.c)
      target_compile_options(freertos_gap${suffix} PRIVATE -Wall -Wextra -Werror)
      target_link_libraries(freertos_gap${suffix} PRIVATE ${k} evtrace_freertos)
      foreach(mode snapshot stream)
        add_test(NAME kernel/freertos/gap_${mode}${suffix}
          COMMAND python3 ${EVT_FR_CHECK} gap $<TARGET_FILE:evtrace> $<TARGET_FILE:freertos_gap${suffix}> ${mode} 2)
        set_tests_properties(kernel/freertos/gap_${mode}${suffix} PROPERTIES LABELS unit TIMEOUT 120 RUN_SERIAL TRUE
          SKIP_RETURN_CODE 77)
        # the same with the recording started from the task, the scheduler running
        add_test(NAME kernel/freertos/gap_late_${mode}${suffix}
          COMMAND python3 ${EVT_FR_CHECK} gap $<TARGET_FILE:evtrace> $<TARGET_FILE:freertos_gap${suffix}> ${mode} 1 late)
        set_tests_properties(kernel/freertos/gap_late_${mode}${suffix} PROPERTIES LABELS unit TIMEOUT 120 RUN_SERIAL TRUE
          SKIP_RETURN_CODE 77)
      endforeach()
    endif()
  endfunction()
  set(EVT_FR_MATRIX_EDGE "MATRIX_STATIC=1;MATRIX_PRIOS=40;MATRIX_NAMELEN=2;MATRIX_NOTIFY_N=4;MATRIX_SLICE=0;MATRIX_TICK0=(~0ul-400ul)")
  evt_freertos_matrix(edge "${FREERTOS_KERNEL_PATH}" "" "${EVT_FR_MATRIX_EDGE}")
  evt_freertos_matrix(coop "${FREERTOS_KERNEL_PATH}" "" "MATRIX_PREEMPT=0;MATRIX_SLICE=0")
  if(FREERTOS_KERNEL_V10_PATH AND EXISTS "${FREERTOS_KERNEL_V10_PATH}/tasks.c")
    evt_freertos_matrix(edge "${FREERTOS_KERNEL_V10_PATH}" "_v10" "${EVT_FR_MATRIX_EDGE}")
    evt_freertos_matrix(coop "${FREERTOS_KERNEL_V10_PATH}" "_v10" "MATRIX_PREEMPT=0;MATRIX_SLICE=0")
  endif()
  add_test(NAME kernel/freertos/outsider_wrap
    COMMAND python3 ${EVT_FR_CHECK} outsider $<TARGET_FILE:evtrace> $<TARGET_FILE:freertos_outsider_11> wrap 1)
  set_tests_properties(kernel/freertos/outsider_wrap PROPERTIES LABELS unit TIMEOUT 120 RUN_SERIAL TRUE)
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
# evtrace/freertos_trace.h without configUSE_TRACE_FACILITY 1: a clear error at the header (no kernel needed).
add_test(NAME kernel/freertos/config_trace_facility
  COMMAND python3 ${EVT_FR_CHECK} config ${CMAKE_C_COMPILER} ${PROJECT_SOURCE_DIR}/include)
set_tests_properties(kernel/freertos/config_trace_facility PROPERTIES LABELS unit TIMEOUT 60)
# A C++ FreeRTOS application: evtrace's FreeRTOS headers compiled as C++ for Cortex-M (the POSIX
# port's header is C11, not C++), its calls to evtrace by their C names. Needs no kernel; the
# Cortex-M cross C++ compiler is optional (the C one is required by cortex_m3_qemu).
find_program(EVT_ARM_GXX arm-none-eabi-g++)
find_program(EVT_ARM_NM arm-none-eabi-nm)
if(EVT_ARM_GXX AND EVT_ARM_NM AND EVT_SANITIZE STREQUAL "")
  add_test(NAME kernel/freertos/header_cxx
    COMMAND python3 ${EVT_FR_CHECK} cxx ${EVT_ARM_GXX} ${EVT_ARM_NM} ${PROJECT_SOURCE_DIR}/tests/kernel/freertos/freertos_header_cxx.cpp
            -mcpu=cortex-m3 -mthumb -std=c++11 -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR}/include
            -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/src/ports/cortex-m)
  set_tests_properties(kernel/freertos/header_cxx PROPERTIES LABELS unit TIMEOUT 60)
endif()
add_test(NAME kernel/freertos/recorded_traces
  COMMAND python3 ${EVT_FR_CHECK} data $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR}/freertos)
set_tests_properties(kernel/freertos/recorded_traces PROPERTIES LABELS unit TIMEOUT 60)

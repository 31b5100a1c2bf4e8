# The Cortex-M example (examples/cortex-m) built from the generated firmware kit and run under QEMU:
# GDB snapshot (bin/hex/srec), live RKH stream on the UART (dump and convert), latency numbers.
# Fails (never skips) without arm-none-eabi-gcc, qemu-system-arm, gdb-multiarch or python3.
add_test(NAME ports/cortexm_example
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_example.sh ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR}/cortexm-example $<TARGET_FILE:evtrace>)
set_tests_properties(ports/cortexm_example PROPERTIES LABELS unit TIMEOUT 300)

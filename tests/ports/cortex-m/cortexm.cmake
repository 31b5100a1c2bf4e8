# Cortex-M port test: cross-builds the QEMU harness (scripts/build-cortex-m.sh), runs it on
# qemu-system-arm (mps2-an386, Cortex-M4), decodes the TXTB buffer it prints with evtrace and
# compares it byte for byte with the same script recorded by the host build (cortexm_twin).
# Fails (never skips) when arm-none-eabi-gcc, qemu-system-arm or python3 is missing.
add_executable(cortexm_twin ${CMAKE_CURRENT_LIST_DIR}/cm_twin_host.c)
target_include_directories(cortexm_twin PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(cortexm_twin PRIVATE evtrace_rec)
add_test(NAME ports/cortexm_qemu
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_cortexm.sh ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR}/cortexm-test $<TARGET_FILE:evtrace> $<TARGET_FILE:cortexm_twin>)
set_tests_properties(ports/cortexm_qemu PROPERTIES LABELS unit TIMEOUT 120)

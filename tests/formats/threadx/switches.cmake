# The TXTB recorder's compile-time switches (src/formats/threadx/txtb_enc.c, docs/firmware.md): the
# switch test and the round trip run again against a recorder compiled into the test with the
# switches of the Cortex-M footprint rows (scripts/footprint.def): mcu = core + TXTB (no options,
# no nesting guard), smallest = user events only, no registry, no stats calls, no buffer-full
# callback. The library's txtb_enc.o is then
# not linked.
function(evt_txtb_switch_test test suffix)
  set(name ${test}_${suffix})
  add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/formats/threadx/${test}.c
                 ${PROJECT_SOURCE_DIR}/src/formats/threadx/txtb_enc.c)
  target_compile_definitions(${name} PRIVATE ${ARGN})
  target_link_libraries(${name} PRIVATE evt_test_support)
  add_test(NAME formats/threadx/${name} COMMAND ${name})
  set_tests_properties(formats/threadx/${name} PROPERTIES TIMEOUT 300 LABELS unit SKIP_RETURN_CODE 77)
endfunction()
evt_txtb_switch_test(test_txtb_switches mcu EVT_TX_USER_RECORDS=0 EVT_TX_OPTIONS=0 EVT_REC_NESTING=0 EVT_TX_LOST_GUARD=0)
evt_txtb_switch_test(test_txtb_switches smallest EVT_TX_USER_RECORDS=0 EVT_TX_OPTIONS=0 EVT_REC_NESTING=0 EVT_TX_LOST_GUARD=0
                     EVT_TX_REGISTRY=0 EVT_TX_KERNEL_EVENTS=0 EVT_TX_STATS=0 EVT_TX_FULL_NOTIFY=0)

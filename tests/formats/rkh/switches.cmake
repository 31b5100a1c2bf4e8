# The RKH recorder's compile-time switches (EVT_RKH_FAST, EVT_RKH_FLIGHT: include/evtrace/rkh.h,
# docs/rkh.md): existing tests run again against a recorder compiled into the test with the
# switches (the test and rkh_enc.c both see them; the library's rkh_enc.o is then not linked).
# small = the Cortex-M footprint row of scripts/footprint.def (no fast paths, streamed only);
# nofast = no fast paths, flight ring kept.
function(evt_rkh_switch_test test suffix)
  set(name ${test}_${suffix})
  add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/formats/rkh/${test}.c ${PROJECT_SOURCE_DIR}/src/formats/rkh/rkh_enc.c)
  target_compile_definitions(${name} PRIVATE ${ARGN})
  target_link_libraries(${name} PRIVATE evt_test_support)
  add_dependencies(${name} evtrace)
  add_test(NAME formats/rkh/${name} COMMAND ${name})
  set(labels unit)
  if(test MATCHES "_mt$")
    set(labels concurrency)
  endif()
  set_tests_properties(formats/rkh/${name} PROPERTIES TIMEOUT 300 LABELS "${labels}" SKIP_RETURN_CODE 77
    ENVIRONMENT "EVT_BIN=$<TARGET_FILE:evtrace>")
endfunction()
foreach(t test_rkh_enc test_rkh_flight test_rkh_nested test_rkh_evict_edges test_rkh_stress_mt test_rkh_stats_mt
          test_rkh_filter_isr_mt test_rkh_config_sizes test_rkh_stream)
  evt_rkh_switch_test(${t} nofast EVT_RKH_FAST=0)
endforeach()
# (test_rkh_stats_mt reads a ring that is never drained: streamed only, its losses stay pending.)
foreach(t test_rkh_enc test_rkh_nested test_rkh_stress_mt test_rkh_filter_isr_mt test_rkh_config_sizes
          test_rkh_stream)
  evt_rkh_switch_test(${t} small EVT_RKH_FAST=0 EVT_RKH_FLIGHT=0)
endforeach()
# mcu = the footprint row exactly: small, and no nesting guard (nothing here nests).
foreach(t test_rkh_enc test_rkh_stream)
  evt_rkh_switch_test(${t} mcu EVT_RKH_FAST=0 EVT_RKH_FLIGHT=0 EVT_REC_NESTING=0)
endforeach()
# streamonly = fast paths kept, no flight ring.
foreach(t test_rkh_enc test_rkh_nested test_rkh_stress_mt test_rkh_filter_isr_mt test_rkh_config_sizes test_rkh_stream)
  evt_rkh_switch_test(${t} streamonly EVT_RKH_FLIGHT=0)
endforeach()
# outofline = fast paths and flight ring kept, begin's and end's fast paths out of line (as on a
# 32-bit target; on 64-bit hosts they are inline by default).
foreach(t test_rkh_enc test_rkh_flight test_rkh_nested test_rkh_evict_edges test_rkh_stress_mt test_rkh_stream)
  evt_rkh_switch_test(${t} outofline EVT_RKH_NO_INLINE_OPEN EVT_RKH_NO_INLINE_END)
endforeach()
# owned = thread-owned recorders compiled in (EVT_RKH_OWNED=1, POSIX): the ownership test, and the
# locked recorder's own tests again (the switch adds a test of own to every locked entry).
foreach(t test_rkh_owned_mt test_rkh_owned test_rkh_owned_fork test_rkh_enc test_rkh_nested test_rkh_stress_mt test_rkh_stats_mt test_rkh_filter_isr_mt)
  evt_rkh_switch_test(${t} owned EVT_RKH_OWNED=1)
endforeach()

# The μT-Kernel tests run on evtrace's host μT-Kernel (examples/utk_kernel): link it into each.
foreach(t test_utk_ds_rules test_utk_adapter test_utk_scenario test_utk_tables test_utk_kernel_mt test_utk_backends)
  if(TARGET ${t} AND TARGET utk_kernel)
    target_link_libraries(${t} PRIVATE utk_kernel)
  endif()
endforeach()

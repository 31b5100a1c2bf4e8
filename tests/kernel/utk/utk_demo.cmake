# μT-Kernel demo end to end: evtrace stats of its trace == the host kernel's accounting, and the
# Perfetto (Chrome JSON) export has task, ISR and service slices (python3 driver).
add_test(NAME kernel/utk/demo_stats_and_perfetto
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/kernel/utk/check_utk_demo.py $<TARGET_FILE:evtrace> $<TARGET_FILE:utk_demo>)
set_tests_properties(kernel/utk/demo_stats_and_perfetto PROPERTIES LABELS unit TIMEOUT 60)

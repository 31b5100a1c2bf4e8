# Exporters in constant memory: peak RSS < 64 MB and flat from 500k to 1.5M synthetic events.
add_test(NAME host/export_scale_rss
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/scale_check.py $<TARGET_FILE:evtrace> "${EVT_SANITIZE}")
set_tests_properties(host/export_scale_rss PROPERTIES LABELS unit TIMEOUT 600)

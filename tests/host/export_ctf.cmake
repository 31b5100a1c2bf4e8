# CTF exporter oracle: babeltrace2 reads the CTF of every readable sample and of a synthetic trace
# with lost data; names, fields, order and discarded counts are checked against `evtrace dump
# --json`. Fails if babeltrace2 is missing.
add_test(NAME host/export_ctf
  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/host/ctf_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${CMAKE_SOURCE_DIR}/tests/host/data)
set_tests_properties(host/export_ctf PROPERTIES LABELS unit TIMEOUT 300)

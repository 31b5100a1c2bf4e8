# CTF exporter oracle (LTTng layout): babeltrace2 reads the CTF of every readable sample, of the
# μT-Kernel scenario trace (written by test_utk_scenario) and of synthetic traces with losses;
# events, per-CPU streams, clock values, discarded counts, UUID, trace name, bytes per event and
# byte-identical reruns are checked against `evtrace dump --json`; the timeline's sched_switch /
# sched_waking / irq_handler_entry / irq_handler_exit records against perfetto_sched_model.py (an
# independent model of the scheduling rules) and the trace's isr_enter / isr_exit events. Fails if
# babeltrace2 is missing.
add_test(NAME host/export_ctf
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/ctf_check.py $<TARGET_FILE:evtrace>
          ${EVT_TEST_DATA_DIR} ${PROJECT_SOURCE_DIR}/tests/host/data $<TARGET_FILE:test_utk_scenario>)
set_tests_properties(host/export_ctf PROPERTIES LABELS unit TIMEOUT 300)
# CTF clock values babeltrace2 cannot read (>= INT64_MAX ns, from a damaged timestamp) are written
# as the largest it reads and counted in env.time_clamped: babeltrace2 reads the output.
add_test(NAME host/export_ctf_clock_limit
  COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/host/ctf_clock_limit.py $<TARGET_FILE:evtrace> ${EVT_TEST_DATA_DIR})
set_tests_properties(host/export_ctf_clock_limit PROPERTIES LABELS unit TIMEOUT 120)

"""CI-only oracle of the Perfetto exporter: decodes evtrace's output against Perfetto's own schema
(perfetto_trace.proto, which is not part of a clone: the development-only folder holds it) with
protoc and checks the decoded content by field name, as tests/host/perfetto_check.py does with the
project's subset: sched_switch prev_comm/prev_pid/prev_state/next_comm/next_pid against the
scheduling model, sched_waking, thread descriptors and the process tree, ISR/service/function
slices, instants, flow_ids / terminating_flow_ids, counters, lost data; and that the upstream schema
knows every field written. Runs on the ThreadX TraceX demo, the μT-Kernel demo's trace and the
synthetic traces.
Outside CI (CI unset or false) it skips (exit 77) and says why. Under CI=true a missing schema
folder or a missing protoc is a failure.
Usage: perfetto_upstream_check.py EVTRACE SAMPLES_DIR PROTO_DIR SCHEMA_DIR [UTK_DEMO]"""
import os
import sys
import tempfile
from export_common import fail, run
import perfetto_check

SKIP = 77
SCHEMA = 'perfetto_trace.proto'


def main():
    evtrace, samples, proto_dir, schema_dir = sys.argv[1:5]
    utk = sys.argv[5] if len(sys.argv) > 5 else None
    ci = os.environ.get('CI', '') not in ('', '0', 'false')
    have = os.path.isfile(os.path.join(schema_dir, SCHEMA))
    if not ci:
        print('SKIP: this oracle runs in CI only (CI=true): it needs Perfetto\'s %s from the '
              'development-only folder %s, which user clones lack%s' %
              (SCHEMA, schema_dir, '' if have else ' (not here)'))
        sys.exit(SKIP)
    if not have:
        fail('CI is set but %s is missing: the CI checkout must have it for this oracle' %
             os.path.join(schema_dir, SCHEMA))
    if run(['protoc', '--version']).returncode != 0:
        fail('CI is set but protoc is missing (package protobuf-compiler)')
    with tempfile.TemporaryDirectory() as tmp:
        for p in (os.path.join(samples, 'threadx_tracex', 'demo_threadx.trx'),
                  os.path.join(samples, 'threadx_real', 'nowrap_m32le.trx'),
                  os.path.join(proto_dir, 'small.syn'), os.path.join(proto_dir, 'weird.syn')):
            perfetto_check.check(evtrace, schema_dir, p, tmp, None, SCHEMA)
        if utk:
            perfetto_check.check_utk(evtrace, utk, schema_dir, tmp, SCHEMA)
        elif ci:
            fail('no utk_demo given: the μT-Kernel trace is part of this oracle')
    print('ok: the Perfetto output decodes against the upstream schema and holds the timeline')


if __name__ == '__main__':
    main()

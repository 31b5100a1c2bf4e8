"""User events (evtrace/user.h) in every output, from the make-run ThreadX demo's own trace: its
printf lines, the value channel "sum", the intervals of "work round" and the state machine
"worker state" must appear
- in `dump --json` as text (and `dump` text),
- in Chrome JSON: instants with args.text, "C" counters named "sum", balanced async b/e pairs,
  "X" state slices on the machine's track,
- in Perfetto (decoded with protoc): instants with a text annotation, a counter track "sum",
  slices on a "work round" track, state slices on "worker state (state machine)",
- in SQLite: user_events (text), user_values, user_intervals, sm_states,
with the same counts and texts everywhere (the text as snprintf gives it: the demo's values are
known: message i carries value 7 i + 3).
DEMO is run as `DEMO TRACE` to write the trace: the ThreadX demo (TXTB), or `test_user_etw`, which
writes the same user events through the ETW recorder (TRACE_NAME demo.etl).
usage: user_exports_check.py EVTRACE DEMO PROTO_DIR [TRACE_NAME]"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_common import fail  # noqa: E402
import perfetto_decode  # noqa: E402


def main():
    evtrace, demo, proto_dir = sys.argv[1:4]
    name = sys.argv[4] if len(sys.argv) > 4 else 'demo.trx'
    with tempfile.TemporaryDirectory() as tmp:
        trx = os.path.join(tmp, name)
        subprocess.run([demo, trx], check=True, stdout=subprocess.DEVNULL)
        want = ['sent message %d: value %d' % (i, 7 * i + 3) for i in range(50)]
        # dump --json
        out = subprocess.run([evtrace, 'dump', '--json', trx], check=True, stdout=subprocess.PIPE).stdout.decode()
        evs = [json.loads(line) for line in out.splitlines()]
        texts = [e.get('text') for e in evs if e.get('name') == 'producer']
        if texts != want:
            fail('dump --json: producer texts %r..., want %r...' % (texts[:3], want[:3]))
        if any(e['name'].startswith('USER_') and e['name'] not in ('USER_SITE',) for e in evs):
            fail('dump --json: a raw USER_ event is left')
        n_sum = sum(1 for e in evs if e.get('name') == 'sum')
        n_work = sum(1 for e in evs if e.get('name') == 'work round') // 2
        n_state = sum(1 for e in evs if e.get('name') == 'worker state')
        text_dump = subprocess.run([evtrace, 'dump', trx], check=True, stdout=subprocess.PIPE).stdout.decode()
        if 'sent message 0: value 3' not in text_dump:
            fail('dump: no text')
        # chrome
        js = os.path.join(tmp, 'demo.json')
        subprocess.run([evtrace, 'convert', trx, '-o', js], check=True, stderr=subprocess.DEVNULL)
        te = json.load(open(js))['traceEvents']
        ct = [e['args'].get('text') for e in te if e.get('ph') == 'i' and e.get('name') == 'producer']
        if ct != want:
            fail('chrome: producer instants %r...' % ct[:3])
        if sum(1 for e in te if e.get('ph') == 'C' and e.get('name') == 'sum') != n_sum:
            fail('chrome: "sum" counter events != %d' % n_sum)
        b = [e for e in te if e.get('ph') == 'b' and e.get('name') == 'work round']
        e_ = [e for e in te if e.get('ph') == 'e' and e.get('name') == 'work round']
        if len(b) != n_work or len(e_) != n_work or n_work == 0:
            fail('chrome: %d/%d async b/e for %d intervals' % (len(b), len(e_), n_work))
        ends = {x['id2']['local']: x['ts'] for x in e_}
        if any(ends[x['id2']['local']] < x['ts'] for x in b):
            fail('chrome: an interval ends before it begins')
        tid = [e['tid'] for e in te if e.get('ph') == 'M' and e['args'].get('name') == 'worker state (state machine)']
        xs = [e for e in te if e.get('ph') == 'X' and tid and e['tid'] == tid[0]]
        if not tid or len(xs) != n_state or {x['name'] for x in xs} != {'waiting', 'working'}:
            fail('chrome: state machine track %r with %d slices (%d states)' % (tid, len(xs), n_state))
        # perfetto
        pf = os.path.join(tmp, 'demo.pftrace')
        subprocess.run([evtrace, 'convert', trx, '--to', 'perfetto', '-o', pf], check=True, stderr=subprocess.DEVNULL)
        _, packets = perfetto_decode.decode(pf, proto_dir)
        t = perfetto_decode.Trace(packets)
        pt = [i[4].get('text') for i in t.instants if i[2] == 'producer']
        if pt != want:
            fail('perfetto: producer instants %r...' % pt[:3])
        sums = [v for tr, v in t.counters.items() if t.track_name(tr) == 'sum']
        if len(sums) != 1 or len(sums[0]) != n_sum:
            fail('perfetto: counter track "sum": %r' % [len(x) for x in sums])
        works = [c for c in t.closed if t.track_name(c[0]) == 'work round']
        if len(works) != n_work:
            fail('perfetto: %d "work round" slices, want %d' % (len(works), n_work))
        sts = [c for c in t.closed if t.track_name(c[0]) == 'worker state (state machine)']
        if len(sts) != n_state or {c[3] for c in sts} != {'waiting', 'working'}:
            fail('perfetto: %d state slices, want %d' % (len(sts), n_state))
        # sqlite
        db = os.path.join(tmp, 'demo.sqlite')
        subprocess.run([evtrace, 'convert', trx, '--to', 'sqlite', '-o', db], check=True, stderr=subprocess.DEVNULL)
        c = sqlite3.connect(db)
        st = [r[0] for r in c.execute("SELECT text FROM user_events WHERE channel='producer' ORDER BY seq")]
        if st != want:
            fail('sqlite: user_events texts %r...' % st[:3])
        if c.execute("SELECT count(*) FROM user_values WHERE channel='sum'").fetchone()[0] != n_sum:
            fail('sqlite: user_values')
        if c.execute("SELECT count(*) FROM user_intervals WHERE channel='work round' AND dur > 0").fetchone()[0] != n_work:
            fail('sqlite: user_intervals')
        if c.execute("SELECT count(*) FROM sm_states WHERE machine='worker state'").fetchone()[0] != n_state:
            fail('sqlite: sm_states')
        print('user events: %d printf lines, %d values, %d intervals, %d states in dump, chrome, perfetto, sqlite'
              % (len(want), n_sum, n_work, n_state))


if __name__ == '__main__':
    main()

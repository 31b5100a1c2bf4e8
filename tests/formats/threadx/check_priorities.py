"""A real ThreadX trace against the priorities ThreadX itself held (tests/data/threadx_counters/
README.md, txprio_app.c): one thread's priority changed while it runs at a priority inherited
from a TX_INHERIT mutex, read by the application right after each change (tx_thread_priority,
what it runs at) with the trace's time source (each event's timestamp is its sequence number).
Checks, with `evtrace`:
- `check` is clean and `info --json` reports no errors and nothing lost;
- at each reading, the thread's priority in the priorities table (its latest row at or before the
  reading's time) is the one ThreadX held;
- each change ThreadX answered by keeping the inherited priority (the reading's priority is not
  the user priority) has its PRIORITY_CHANGE event's meaning say so (kept_prio: that priority);
- its three threads, created with TX_NO_TIME_SLICE, have ThreadX time slice count 0 by
  construction, and the trace has no TIME_SLICE record: `stats --json` and the SQLite contexts
  table give each thread time_slices 0, not nothing (its scheduler's records say every time
  slice's end would be written: evt_reader.counts).
Usage: check_priorities.py EVTRACE TRACE READINGS_JSON"""
import json
import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'support'))
from evtcheck import clean_trace, run_evtrace  # noqa: E402


def main():
    evtrace, trace, readings = sys.argv[1:4]
    key = json.load(open(readings, encoding='utf-8'))
    thread, bad = key['thread'], clean_trace(evtrace, trace)

    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, 't.sqlite')
        cv = run_evtrace(evtrace, 'convert', '-q', trace, '-o', db)
        if cv.returncode != 0:
            sys.exit(f'convert: exit {cv.returncode}: {cv.stderr.strip()}')
        con = sqlite3.connect(db)
        rows = con.execute('SELECT p.t, p.prio, p.reason FROM priorities p JOIN contexts c ON c.ctx = p.ctx '
                           'WHERE c.name = ? ORDER BY p.t', (thread,)).fetchall()
        slices_db = dict(con.execute("SELECT name, time_slices FROM contexts WHERE class = 'thread'").fetchall())
        con.close()
    for r in key['readings']:
        at = [row for row in rows if row[0] <= r['t']]
        got = at[-1][1] if at else None
        if got != r['priority']:
            bad.append(f"at {r['t']} ({r['after']}): priorities table says {got}, ThreadX ran {thread} at "
                       f"{r['priority']} (user priority {r['user_priority']})")

    kept = []
    for line in run_evtrace(evtrace, 'dump', '--json', trace).stdout.splitlines():
        e = json.loads(line)
        if e['name'] == 'THREAD_PRIORITY_CHANGE' and e['fields'].get('target_name') == thread:
            kept.append((e['ts'], e['meaning'].get('kept_prio')))
    for r in key['readings']:
        if r['priority'] == r['user_priority']:
            continue
        before = [k for k in kept if k[0] <= r['t']]
        if not before or before[-1][1] != r['priority']:
            bad.append(f"at {r['t']} ({r['after']}): the change before it has kept_prio "
                       f"{before[-1][1] if before else None}, ThreadX kept {r['priority']}")

    st = run_evtrace(evtrace, 'stats', '--json', trace)
    slices = {c['name']: c.get('time_slices') for c in json.loads(st.stdout)['contexts'] if c['class'] == 'thread'}
    for name in ('low', 'high', 'ctrl'):  # txprio_app.c's threads, all TX_NO_TIME_SLICE
        if slices.get(name) != 0 or slices_db.get(name) != 0:
            bad.append(f"{name}: time_slices {slices.get(name)} (stats), {slices_db.get(name)} (SQLite); "
                       f"ThreadX's is 0 (TX_NO_TIME_SLICE)")

    n_kept = sum(1 for r in key['readings'] if r['priority'] != r['user_priority'])
    if bad:
        print('\n'.join(bad))
        sys.exit(1)
    print(f"ok: {len(key['readings'])} readings of {thread}'s priority match the priorities table "
          f"({n_kept} where ThreadX kept the inherited priority); {len(rows)} priority rows; "
          f"time_slices 0 for {', '.join(sorted(slices))}")


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Priority inheritance and the timeline's meaning records on real RTOS hook traces
(tests/host/meaning.cmake).

  check_inheritance.py data EVTRACE DIR
      every FreeRTOS trace in DIR with its counters (NAME.counters.json beside NAME.trx / NAME.rkh):
      `stats --json` counts as many bounded inversions (waits of a higher priority on a lower
      holder) as FreeRTOS counted inheritances, by the trace's own priority order (its kernel
      profile: higher wins); read as lower-wins, none; the SQLite export's `priorities` table has
      one inherit row per inheritance and the `wakeups` table names a waker for the wake-ups;
      the mutex waits are blocked states on the mutex (the switch's blocked-on object).
  check_inheritance.py demo EVTRACE DEMO SECONDS
      the same on fresh runs of the FreeRTOS POSIX example through both hooks backends (TXTB
      snapshot, RKH stream).
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def run(args):
    out = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        fail('%s: exit %d: %s' % (' '.join(args), out.returncode, out.stderr.strip()))
    return out.stdout


def inversions(evtrace, path, extra=()):
    st = json.loads(run([evtrace, 'stats', '--json'] + list(extra) + [path]))
    return st['analyses']['inversions']


def check(evtrace, path, counters, tmp):
    want = counters['mutexes'][0]['inheritances']
    mx = counters['mutexes'][0]['name']
    inv = inversions(evtrace, path)
    label = os.path.basename(path)
    if inv['priority_order'] != 'higher_wins':
        fail('%s: priority order %s, FreeRTOS: higher wins' % (label, inv['priority_order']))
    if inv['inheritances'] != want or inv['bounded'] != want:
        fail('%s: %d inheritances recorded, %d bounded inversions; FreeRTOS counted %d'
             % (label, inv['inheritances'], inv['bounded'], want))
    for b in inv['bounded_list']:
        if b['mutex'] != mx or not b['high']['priority'] > b['low']['priority']:
            fail('%s: bounded inversion %r' % (label, b))
    wrong = inversions(evtrace, path, ['--priority-order', 'lower'])
    if wrong['bounded'] != 0:
        fail('%s: read as lower-wins, %d bounded inversions (want 0)' % (label, wrong['bounded']))
    db = os.path.join(tmp, label + '.db')
    run([evtrace, 'convert', path, '-o', db, '--to', 'sqlite'])
    c = sqlite3.connect(db)
    inh = c.execute("SELECT count(*) FROM priorities WHERE reason = 'inherit'").fetchone()[0]
    dis = c.execute("SELECT count(*) FROM priorities WHERE reason = 'disinherit'").fetchone()[0]
    wk, named = c.execute('SELECT count(*), count(waker) FROM wakeups').fetchone()
    on_mx = c.execute('SELECT count(*) FROM thread_states s JOIN objects o ON o.target = s.object '
                      "WHERE s.state = 'blocked' AND o.name = ?", (mx,)).fetchone()[0]
    c.close()
    if inh != want or dis != want:
        fail('%s: priorities table: %d inherit, %d disinherit rows; want %d each' % (label, inh, dis, want))
    if wk == 0 or named == 0:
        fail('%s: wakeups table: %d rows, %d with a waker' % (label, wk, named))
    if on_mx < want:
        fail('%s: %d blocked states on %s, fewer than the %d inheritances' % (label, on_mx, mx, want))
    print('ok: %s: %d inheritances = %d bounded inversions (higher wins; 0 as lower wins); %d priority '
          'rows, %d wake-ups, %d waits on %s' % (label, want, inv['bounded'], inh + dis, wk, on_mx, mx))


def main():
    a = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        if a[:1] == ['data'] and len(a) == 3:
            n = 0
            for name in sorted(os.listdir(a[2])):
                if not name.endswith('.counters.json'):
                    continue
                with open(os.path.join(a[2], name)) as f:
                    counters = json.load(f)
                for ext in ('trx', 'rkh'):
                    p = os.path.join(a[2], name[:-len('.counters.json')] + '.' + ext)
                    if os.path.exists(p):
                        check(a[1], p, counters, tmp)
                        n += 1
            if n == 0:
                fail('no recorded FreeRTOS trace in ' + a[2])
        elif a[:1] == ['demo'] and len(a) == 4:
            for mode in ('snapshot', 'stream'):
                out = os.path.join(tmp, 'trace.' + ('trx' if mode == 'snapshot' else 'rkh'))
                counters = json.loads(run([a[2], mode, out, a[3]]).strip().splitlines()[-1])
                check(a[1], out, counters, tmp)
        else:
            print(__doc__)
            sys.exit(2)


if __name__ == '__main__':
    main()

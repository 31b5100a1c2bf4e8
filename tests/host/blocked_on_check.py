#!/usr/bin/env python3
"""What a thread is blocked on, the same in every export (tests/host/blocked_on.cmake): for a
recorded trace, the blocked intervals of SQLite's thread_states (state 'blocked': context, t0, t1,
object, service) are, one for one, the Perfetto export's "blocked on <object>" slices (category
"blocked" on the "blocked <context>" track, annotations object_id / object / service; decoded with
protoc against tests/host/data/perfetto_subset.proto) and the Chrome JSON export's "X" slices
(cat "blocked" on the "<context> (blocked)" track, args object_id / object / service). The object
names agree with SQLite's objects table. The wake-ups: SQLite's `wake` flows are Chrome's "wake"
flow pairs and Perfetto's "wake" flow instants, with the object each went through; Perfetto's
sched_waking count equals SQLite's wakeups rows that name a woken context.
Usage: blocked_on_check.py EVTRACE PROTO_DIR TRACE..."""
import json
import os
import sqlite3
import sys
import tempfile
from collections import Counter
from export_common import fail, run
from perfetto_decode import decode, Trace


def conv(evtrace, trace, out):
    r = run([evtrace, 'convert', trace, '-o', out])
    if r.returncode != 0:
        fail('convert %s -> %s: %s' % (trace, out, r.stderr.decode()))


def label(ctx, name):
    """evt_tl_ctx_label: the name, else "ctx 0x<id>"."""
    return name if name else ('ctx 0x%x' % ctx if ctx is not None else None)


def check(evtrace, proto_dir, trace, tmp):
    base = os.path.basename(trace)
    db, js, pf = (os.path.join(tmp, base + x) for x in ('.sqlite', '.json', '.pftrace'))
    for p in (db, js, pf):
        conv(evtrace, trace, p)
    c = sqlite3.connect(db)
    names = dict(c.execute('SELECT ctx, name FROM contexts'))
    onames = {}
    for tgt, nm in c.execute('SELECT target, name FROM objects'):
        if nm is not None:
            onames[tgt] = nm
    want = Counter()
    for ctx, t0, t1, obj, svc in c.execute("SELECT ctx, t0, t1, object, service FROM thread_states "
                                           "WHERE state = 'blocked'"):
        if obj is not None and obj == ctx:  # a delay on its own handle is no object to wait on
            fail('%s: %s is blocked on itself at %d (%s)' % (base, label(ctx, names.get(ctx)), t0, svc))
        want[(label(ctx, names.get(ctx)), t0, t1, obj, onames.get(obj, None if obj is None else '0x%x' % obj), svc)] += 1
    wflows = Counter((t0, t1, obj) for t0, t1, obj in c.execute("SELECT t0, t1, object FROM flows WHERE kind = 'wake'"))
    nwake = c.execute('SELECT count(*) FROM wakeups WHERE ctx IS NOT NULL').fetchone()[0]
    c.close()
    with_obj = sum(n for k, n in want.items() if k[3] is not None)
    if not want or not with_obj:
        fail('%s: SQLite has %d blocked states, %d with an object: the trace should have both' % (base, sum(want.values()), with_obj))

    # Chrome JSON
    with open(js) as f:
        d = json.load(f)
    evs = d['traceEvents'] if isinstance(d, dict) else d
    tnames = {e['tid']: e['args']['name'] for e in evs if e.get('ph') == 'M' and e.get('name') == 'thread_name'}
    got = Counter()
    for e in evs:
        if e.get('cat') != 'blocked':
            continue
        if e.get('ph') != 'X':
            fail('%s: chrome blocked record is not an X slice: %r' % (base, e))
        tn = tnames.get(e['tid'], '')
        if not tn.endswith(' (blocked)'):
            fail('%s: chrome blocked slice on track %r' % (base, tn))
        a = e.get('args', {})
        t0 = round(e['ts'] * 1000)
        got[(tn[:-len(' (blocked)')], t0, t0 + round(e['dur'] * 1000), a.get('object_id'), a.get('object'),
             a.get('service'))] += 1
        if e['name'] != ('blocked on %s' % a['object'] if 'object' in a else 'blocked'):
            fail('%s: chrome blocked slice named %r, args %r' % (base, e['name'], a))
    if got != want:
        fail('%s: chrome blocked slices differ from SQLite thread_states: only chrome %r..., only SQLite %r...' %
             (base, list((got - want).items())[:3], list((want - got).items())[:3]))
    cfl_s = {e['id']: e for e in evs if e.get('cat') == 'flow' and e.get('ph') == 's' and e.get('name') == 'wake'}
    cfl_f = {e['id']: e for e in evs if e.get('cat') == 'flow' and e.get('ph') == 'f' and e.get('name') == 'wake'}
    cwf = Counter((round(s['ts'] * 1000), round(cfl_f[i]['ts'] * 1000), s.get('args', {}).get('object_id'))
                  for i, s in cfl_s.items() if i in cfl_f)
    if cwf != wflows or len(cfl_s) != len(cfl_f):
        fail('%s: chrome wake flows differ from SQLite flows: only chrome %r..., only SQLite %r...' %
             (base, list((cwf - wflows).items())[:3], list((wflows - cwf).items())[:3]))

    # Perfetto
    _, packets = decode(pf, proto_dir)
    T = Trace(packets)
    begins = [s for s in T.slices if s[3] == 'blocked']
    closed = [s for s in T.closed if s[4] == 'blocked']
    if len(begins) != len(closed):
        fail('%s: perfetto: %d blocked slices begun, %d closed' % (base, len(begins), len(closed)))
    pgot = Counter()
    for (tr, ts, nm, _, ann), (tr2, t0, t1, _, _) in zip(begins, closed):
        tn = T.track_name(tr) or ''
        if tr != tr2 or ts != t0 or not tn.startswith('blocked '):
            fail('%s: perfetto blocked slice on track %r (%s/%s at %d/%d)' % (base, tn, tr, tr2, ts, t0))
        if nm != ('blocked on %s' % ann['object'] if 'object' in ann else 'blocked'):
            fail('%s: perfetto blocked slice named %r, annotations %r' % (base, nm, ann))
        pgot[(tn[len('blocked '):], t0, t1, ann.get('object_id'), ann.get('object'), ann.get('service'))] += 1
    if pgot != want:
        fail('%s: perfetto blocked slices differ from SQLite thread_states: only perfetto %r..., only SQLite %r...' %
             (base, list((pgot - want).items())[:3], list((want - pgot).items())[:3]))
    fs, fe = {}, {}
    for tr, ts, nm, cat, ann, fo, ft in T.instants:
        if cat == 'flow' and nm == 'wake':
            for i in fo:
                fs[i] = (ts, ann.get('object_id'))
            for i in ft:
                fe[i] = ts
    pwf = Counter((fs[i][0], fe[i], fs[i][1]) for i in fs if i in fe)
    if pwf != wflows:
        fail('%s: perfetto wake flows differ from SQLite flows: only perfetto %r..., only SQLite %r...' %
             (base, list((pwf - wflows).items())[:3], list((wflows - pwf).items())[:3]))
    if len(T.wakings) != nwake:
        fail('%s: perfetto has %d sched_waking, SQLite %d wakeups of a context' % (base, len(T.wakings), nwake))
    objs = Counter(k[4] for k in want.elements() if k[4] is not None)
    print('ok: %s: %d blocked states (%d on an object: %s) agree in SQLite, Perfetto and Chrome; '
          '%d wake flows, %d sched_waking' % (base, sum(want.values()), with_obj,
                                              ', '.join('%s %d' % kv for kv in objs.most_common(6)),
                                              sum(wflows.values()), nwake))


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    evtrace, proto_dir = sys.argv[1:3]
    if run(['protoc', '--version']).returncode != 0:
        fail('protoc missing (package protobuf-compiler)')
    with tempfile.TemporaryDirectory() as tmp:
        for t in sys.argv[3:]:
            check(evtrace, proto_dir, t, tmp)


if __name__ == '__main__':
    main()

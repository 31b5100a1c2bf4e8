"""Cross-output agreement of the one timeline (issue 11, "Done when"): each trace is converted to
every output -- SQLite, Perfetto protobuf (decoded with protoc against
tests/host/data/perfetto_subset.proto), Chrome JSON, CTF (read back with babeltrace2
--clock-cycles), the HTML report's data block and `stats --json` -- and the durations the
timeline gives are compared, in the trace's time unit (ns when the clock is known, else ticks,
which every output then says: traces.time_unit, otherData.time_unit, meta.unit, stats time_unit,
the Perfetto process name, the CTF metadata). SQLite is the reference; docs/exports.md ("One
timeline in every output") states every rule:

- running, per context (matched by the timeline's index: SQLite contexts row order, Perfetto and
  Chrome tid = index + 2, CTF tid = index + 1, the report's ctx array, stats by id and class):
  every running interval [t0, t1] of SQLite thread_states (state 'running'); Perfetto and CTF: per
  CPU, the next of a sched_switch runs from it to the next sched_switch on that CPU (the last one
  to the trace's end); Chrome: the "running" slices (cat sched); report: its states of state 0.
  Zero-length intervals (switched in and out at one time) are sched_switch records and Chrome
  slices but no state row. Switch-ins agree in Perfetto, CTF, Chrome, report ctx.switches and
  stats switches; report ctx.run is the SQLite sum; SQLite and stats cpu_time = running time minus
  the depth-0 ISRs that interrupted the context (report ctx.isr);
- ISRs: every (cpu, t0, t1): SQLite isrs = Perfetto "ISR cpu N" slices = Chrome slices on tid
  2000000 + N = the report's isrs (same flags, same interrupted context); CTF irq_handler_entry at
  every t0 and irq_handler_exit at the t1 of those not truncated; stats isrs count/min/max/sum per
  name over those neither open at the end nor closed by a loss;
- service/function slices: every (name, cat, t0, t1) in Perfetto and the report; Chrome per name:
  first pieces = slices begun while their context ran, pieces' total = each slice's time inside
  its context's running intervals (ISR contexts whole, depth < 32), one-instant services as "i"
  events; stats per name: the slices with a duration (not one-instant services, not open at the
  end, not closed by a loss);
- blocked states: every blocked interval (context, t0, t1, object) of SQLite thread_states =
  Perfetto's "blocked" slices (track uuid index << 4 | 11, annotation object_id) = Chrome's "X"
  slices of cat "blocked" (tid 4000000 + index + 2, args.object_id);
- lost records: SQLite traces.lost = sum(losses.count) = Perfetto "lost events" instants' counts =
  Chrome "lost events" args.count = CTF discarded events (babeltrace2's warnings) = stats
  lost.count = report meta.lost_count.

Traces: every readable sample under tests/data, the μT-Kernel scenario trace (written by
test_utk_scenario), synthetic traces with losses and a clock, ThreadX with and without
--clock-hz, ThreadX SMP copies (a run of slots on core 1, and on core 100, past the timeline's 64
CPU slots) and a real ThreadX buffer with one ISR exit missing. Any disagreement prints the
trace, the output, the context or name and the two values, and fails; so does a run that
compared nothing of some kind. Needs protoc and babeltrace2 (fails when missing).

usage: timeline_agree.py EVTRACE DATA_DIR PROTO_DIR UTK_SCENARIO_TEST"""
import decimal
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_common import fail, run, readable_samples, one  # noqa: E402
from perfetto_decode import decode, Trace  # noqa: E402

ISR_TID_BASE = 2000000
STATE_TID_BASE = 1000000
BLOCKED_TID_BASE = 4000000
UUID_KIND_BLOCKED = 11  # perfetto.c UUID_OF(kind, key) = key << 4 | kind
LAST_SLOT = 63  # EVT_TL_MAX_CPUS - 1: CPUs from 63 up share the timeline's last CPU slot
CHROME_MAX_DEPTH = 32  # chrome.c MAX_DEPTH: open slices drawn per context
BT_LINE = re.compile(r"^\[(\d+)\] \(\+[^)]*\) (\w+): \{ cpu_id = (\d+) \}, \{ (.*) \}$")
BT_FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|-?\d+)')
BT_DISCARD = re.compile(r'Tracer discarded (\d+) events? ')


TOTAL = dict.fromkeys(('runs', 'isrs', 'slices with a length', 'chrome pieces', 'lost', 'zero-length switch-ins',
                       'blocked states', 'ns traces', 'tick traces'), 0)


class Disagree(Exception):
    pass


def convert(evtrace, path, extra, to, out):
    r = run([evtrace, 'convert', '-q', '--force'] + extra + [path, '-o', out, '--to', to])
    if r.returncode not in (0, 1):
        fail('convert %s --to %s failed (%d): %s' % (path, to, r.returncode, r.stderr.decode()[:2000]))


# ---- the reference: SQLite ------------------------------------------------------------------

class Ref:
    """The SQLite tables of one trace, by the timeline's context index."""

    def __init__(self, db_path, R):
        self.R = R  # the report's records: which "no context" entry a NULL ctx is, when several
        db = sqlite3.connect(db_path)
        tr = db.execute('SELECT time_unit, start_t, end_t, lost FROM traces').fetchone()
        self.unit, self.start, self.end, self.lost = tr
        self.losses_sum = db.execute('SELECT coalesce(sum(count), 0) FROM losses').fetchone()[0]
        self.loss_t = set(r[0] for r in db.execute('SELECT t1 FROM losses'))
        rows = db.execute('SELECT ctx, name, class, cpu_time FROM contexts ORDER BY rowid').fetchall()
        self.ctxs = rows  # index = row order
        self.by_id, self.noctx = {}, {}
        for i, (cid, _, cls, _) in enumerate(rows):
            if cid is None:
                self.noctx.setdefault('isr' if cls == 'isr' else 'run', []).append(i)
            else:
                self.by_id[cid] = i
        self.running = {}
        for cid, t0, t1 in db.execute(
                "SELECT ctx, t0, t1 FROM thread_states WHERE state = 'running' ORDER BY rowid"):
            self.running.setdefault(self.index(cid, 'run', ('state', t0, t1)), []).append((t0, t1))
        for v in self.running.values():
            v.sort()
        self.blocked = sorted((self.index(cid, 'run', ('state', t0, t1)), t0, t1, obj) for cid, t0, t1, obj in db.execute(
            "SELECT ctx, t0, t1, object FROM thread_states WHERE state = 'blocked'"))
        self.isrs = sorted(db.execute('SELECT cpu, t0, t1, depth, truncated, name, interrupted FROM isrs').fetchall())
        self.slices = db.execute('SELECT ctx, cat, name, t0, t1, truncated, depth FROM slices').fetchall()
        db.close()

    def index(self, cid, cls, key):
        """The context index of a row: by id, else the class's "no context" entry; SQLite has
        one NULL for every such entry, so when a trace has several the report's record with the
        same key (its context index) says which."""
        if cid is not None:
            return self.by_id[cid]
        cand = self.noctx.get(cls, [])
        if len(cand) > 1:
            cand = [i for i in cand if i in self.R['keys'].get(key, ())]
        if len(cand) != 1:
            raise Disagree('sqlite: the row %r with ctx NULL matches %d "no context" entries' % (key, len(cand)))
        return cand[0]

    def name(self, i):
        c = self.ctxs[i]
        return '%s (index %d, ctx %s)' % (c[1], i, c[0])


def overlap(iv, runs):
    t0, t1 = iv
    return sum(max(0, min(t1, b) - max(t0, a)) for a, b in runs)


# ---- the outputs, each reduced to the same shape --------------------------------------------

def runs_from_switches(switches, end):
    """[(cpu, ts, prev, next)] in output order -> {tid: [(t0, t1)]}, per CPU from one switch to
    the next (the last to the trace's end); also {tid: switch-ins}."""
    by_cpu, runs, ins = {}, {}, {}
    for cpu, ts, prev, nxt in switches:
        by_cpu.setdefault(cpu, []).append((ts, prev, nxt))
    for cpu, sw in by_cpu.items():
        for k, (ts, prev, nxt) in enumerate(sw):
            if k and sw[k - 1][2] != prev:
                raise Disagree('cpu %d: sched_switch at %d has prev %d, the previous switch\'s next was %d'
                               % (cpu, ts, prev, sw[k - 1][2]))
            if nxt:
                t1 = sw[k + 1][0] if k + 1 < len(sw) else end
                runs.setdefault(nxt, []).append((ts, t1))
                ins[nxt] = ins.get(nxt, 0) + 1
    for v in runs.values():
        v.sort()
    return runs, ins


def perfetto_out(evtrace, path, extra, tmp, proto_dir, end):
    out = os.path.join(tmp, 'p.pftrace')
    convert(evtrace, path, extra, 'perfetto', out)
    _, packets = decode(out, proto_dir)
    T = Trace(packets)
    sw = [(cpu, ts, int(f.get('prev_pid', 0)), int(f.get('next_pid', 0))) for ts, cpu, _, f in T.switches]
    runs, ins = runs_from_switches(sw, end)
    isr_tracks = {u: int(T.track_name(u)[len('ISR cpu '):]) for u in T.tracks
                  if (T.track_name(u) or '').startswith('ISR cpu ')}
    isrs = sorted((isr_tracks[tr], t0, t1) for tr, t0, t1, _, _ in T.closed if tr in isr_tracks)
    slices = [(nm, cat, t0, t1) for tr, t0, t1, nm, cat in T.closed if tr not in isr_tracks and cat in ('svc', 'func')]
    lost = sum(int(ann.get('count', 0)) for _, _, _, cat, ann, _, _ in T.instants if cat == 'lost')
    bl_begin = [(tr, ts, ann.get('object_id')) for tr, ts, _, cat, ann in T.slices if cat == 'blocked']
    bl_end = [(tr, t0, t1) for tr, t0, t1, _, cat in T.closed if cat == 'blocked']
    if [(tr, ts) for tr, ts, _ in bl_begin] != [(tr, t0) for tr, t0, _ in bl_end]:
        raise Disagree('perfetto: blocked slices do not close right after they begin')
    if any(int(tr) & 15 != UUID_KIND_BLOCKED for tr, _, _ in bl_end):
        raise Disagree('perfetto: a blocked slice on a track that is not a blocked track')
    blocked = sorted((int(tr) >> 4, t0, t1, b[2]) for (tr, t0, t1), b in zip(bl_end, bl_begin))
    pnames = [one(pr, 'process_name') for p in packets for td in p.get('track_descriptor', [])
              for pr in td.get('process', [])]
    return {'unit': 'ticks' if any('ticks' in (n or '') for n in pnames) else 'ns',
            'runs': {tid - 2: v for tid, v in runs.items()}, 'ins': {tid - 2: n for tid, n in ins.items()},
            'isrs': isrs, 'slices': slices, 'lost': lost, 'blocked': blocked}


def chrome_out(evtrace, path, extra, tmp, ns):
    out = os.path.join(tmp, 'c.json')
    convert(evtrace, path, extra, 'chrome', out)
    with open(out, encoding='utf-8') as f:
        doc = json.load(f, parse_float=decimal.Decimal)

    def t_of(ts):
        v = decimal.Decimal(ts) * (1000 if ns else 1)
        if v != v.to_integral_value():
            raise Disagree('chrome: ts %s is not a whole %s' % (ts, 'ns' if ns else 'tick'))
        return int(v)
    stacks, runs, isrs, pieces, instants, lost, activity, blocked = {}, {}, [], [], [], 0, [], []
    for e in doc['traceEvents']:
        ph, tid = e['ph'], e.get('tid')
        if ph == 'M' or e.get('pid') != 1:
            continue
        if ph == 'X' and e.get('cat') == 'activity':
            activity.append((tid - 2, t_of(e['ts']), t_of(e['ts']) + t_of(e['dur'])))
            continue
        if ph == 'X' and e.get('cat') == 'blocked' and tid >= BLOCKED_TID_BASE:
            t0 = t_of(e['ts'])
            blocked.append((tid - BLOCKED_TID_BASE - 2, t0, t0 + t_of(e['dur']), e.get('args', {}).get('object_id')))
            continue
        if ph == 'X':
            raise Disagree('chrome: an "X" event (the exporter writes B/E pairs, X only for activity and '
                           'blocked states): %r' % e)
        if ph == 'B':
            stacks.setdefault(tid, []).append((t_of(e['ts']), e.get('name'), e.get('cat'), e.get('args', {})))
        elif ph == 'E':
            if not stacks.get(tid):
                raise Disagree('chrome: E without B on tid %d at %s' % (tid, e['ts']))
            t0, nm, cat, args = stacks[tid].pop()
            t1 = t_of(e['ts'])
            if cat == 'sched' and nm == 'running':
                runs.setdefault(tid - 2, []).append((t0, t1))
            elif cat == 'isr' and tid >= ISR_TID_BASE:
                isrs.append((tid - ISR_TID_BASE, t0, t1))
            elif 2 <= tid < STATE_TID_BASE:  # a service/function piece (written without a cat)
                pieces.append((tid - 2, nm, cat, t0, t1, bool(args.get('resumed'))))
        elif ph in ('i', 'I'):
            if e.get('name') == 'lost events':
                lost += int(e.get('args', {}).get('count', 0))
            elif e.get('cat') == 'svc':
                instants.append((tid - 2, e.get('name'), t_of(e['ts'])))
    left = {k: v for k, v in stacks.items() if v}
    if left:
        raise Disagree('chrome: B without E: %r' % {k: v[:2] for k, v in left.items()})
    for v in runs.values():
        v.sort()
    info = json.loads(run([evtrace, 'info', '--json'] + extra + [path]).stdout.decode())
    return {'runs': runs, 'isrs': sorted(isrs), 'pieces': pieces, 'instants': instants, 'lost': lost,
            'activity': activity, 'blocked': sorted(blocked), 'sched': 'scheduling' in info['capabilities'],
            'unit': doc.get('otherData', {}).get('time_unit')}


def ctf_out(evtrace, path, extra, tmp, end):
    out = os.path.join(tmp, 'ctf')
    convert(evtrace, path, extra, 'ctf', out)
    b = run(['babeltrace2', '--clock-cycles', out])
    if b.returncode != 0:
        raise Disagree('ctf: babeltrace2 exit %d: %s' % (b.returncode, b.stderr.decode()[:1000]))
    sw, entries, exits = [], [], []
    for line in b.stdout.decode('utf-8', 'replace').splitlines():
        m = BT_LINE.match(line)
        if not m or m.group(2) not in ('sched_switch', 'irq_handler_entry', 'irq_handler_exit'):
            continue
        t, name, cpu = int(m.group(1)), m.group(2), min(int(m.group(3)), LAST_SLOT)
        f = dict(BT_FIELD.findall(m.group(4)))
        if name == 'sched_switch':
            sw.append((cpu, t, int(f['prev_tid']), int(f['next_tid'])))
        elif name == 'irq_handler_entry':
            entries.append((cpu, t))
        else:
            exits.append((cpu, t))
    sw.sort(key=lambda s: (s[0], s[1]))  # per CPU stream, in time order (stable: record order)
    runs, ins = runs_from_switches(sw, end)
    lost = sum(int(x) for x in BT_DISCARD.findall(b.stderr.decode('utf-8', 'replace')))
    with open(os.path.join(out, 'metadata'), encoding='utf-8') as f:
        m = re.search(r'time_unit = "(\w+)"', f.read())
    return {'unit': m.group(1) if m else None,
            'runs': {tid - 1: v for tid, v in runs.items()}, 'ins': {tid - 1: n for tid, n in ins.items()},
            'entries': sorted(entries), 'exits': sorted(exits), 'lost': lost}


def report_out(evtrace, path, extra, tmp):
    out = os.path.join(tmp, 'r.html')
    r = run([evtrace, 'report', '-q', '--force'] + extra + [path, '-o', out])
    if r.returncode not in (0, 1):
        fail('report %s failed: %s' % (path, r.stderr.decode()[:2000]))
    with open(out, encoding='utf-8') as f:
        page = f.read()
    m = re.search(r'<script type="application/json" id="evt-data">(.*?)</script>', page, re.S)
    if not m:
        raise Disagree('report: no evt-data block')
    d = json.loads(m.group(1))
    meta = d['meta']
    base = meta['origin'] + meta['shift']
    strs = meta['strings']
    runs, isrs, slices, keys = {}, [], [], {}
    st = d['states']
    for k in range(0, len(st), 8):
        if st[k + 1] == 0:
            t0, t1 = base + st[k + 3], base + st[k + 3] + st[k + 4]
            runs.setdefault(st[k], []).append((t0, t1))
            keys.setdefault(('state', t0, t1), set()).add(st[k])
    iv = d['isrs']
    for k in range(0, len(iv), 9):
        isrs.append((iv[k], base + iv[k + 1], base + iv[k + 1] + iv[k + 2], iv[k + 8], iv[k + 3], iv[k + 5]))
    sl = d['slices']
    cats = meta['span_cats']
    for k in range(0, len(sl), 8):
        slices.append((strs[sl[k + 5]], cats[sl[k + 1]], base + sl[k + 2], base + sl[k + 2] + sl[k + 3]))
        keys.setdefault(('slice',) + (slices[-1][0],) + slices[-1][2:], set()).add(sl[k])
    for v in runs.values():
        v.sort()
    return {'runs': runs, 'isrs': sorted(isrs), 'slices': slices, 'lost': meta['lost_count'],
            'ctx': meta['ctx'], 'unit': meta['unit'], 'keys': keys}


def stats_out(evtrace, path, extra):
    r = run([evtrace, 'stats', '--json'] + extra + [path])
    if r.returncode not in (0, 1):
        fail('stats %s failed: %s' % (path, r.stderr.decode()[:2000]))
    return json.loads(r.stdout.decode('utf-8'))


# ---- comparisons ----------------------------------------------------------------------------

def per_name(slices):
    """[(name, cat, t0, t1)] -> {(cat, name): [count, total]}"""
    out = {}
    for nm, cat, t0, t1 in slices:
        c = out.setdefault((cat, nm), [0, 0])
        c[0] += 1
        c[1] += t1 - t0
    return out


def same(what, ref, got):
    if ref != got:
        raise Disagree('%s: sqlite %r, got %r' % (what, ref, got))


def positive(runs):
    """The running intervals with a length: the timeline reports no zero-length state (a context
    switched in and out at the same time), so SQLite and the report have no row for them while
    every sched_switch (Perfetto, CTF) and Chrome's B/E pairs show them."""
    return [x for x in runs if x[1] > x[0]]


def compare_runs(out, ref, runs):
    for i in sorted(set(ref.running) | set(runs)):
        a, b = ref.running.get(i, []), positive(runs.get(i, []))
        if a != b:
            miss = [x for x in a if x not in b][:3]
            extra = [x for x in b if x not in a][:3]
            raise Disagree('%s: context %s: running intervals differ: sqlite %d, %s %d; only in sqlite %r, only '
                           'in %s %r' % (out, ref.name(i) if i < len(ref.ctxs) else 'index %d' % i, len(a), out,
                                         len(b), miss, out, extra))


def isr_time_of(ref, R, i):
    """The timeline's isr_time of context i: the outermost ISRs' time while it was the running
    context, i.e. of the depth-0 ISRs that interrupted it (an ISR keeps the context it
    interrupted: another context's thread event inside an ISR whose exit is missing closes the
    ISR there, truncated, before the switch). SQLite isrs.interrupted is a context id,
    NULL for idle and for a context without an id, so the report's index says which; where SQLite
    has an id the report's index must be that context."""
    total = 0
    for cpu, t0, t1, fl, depth, intr in R['isrs']:
        if depth == 0 and intr == i:
            total += t1 - t0
    return total


def check_interrupted(ref, R):
    got = sorted((cpu, t0, t1, ref.ctxs[intr][0] if intr >= 0 else None) for cpu, t0, t1, _, _, intr in R['isrs'])
    want = sorted((cpu, t0, t1, intr) for cpu, t0, t1, _, _, _, intr in ref.isrs)
    same('ISR interrupted contexts (report index -> id)', want, got)


def check(evtrace, path, extra, tmp, proto_dir, say):
    name = os.path.basename(path) + (' ' + ' '.join(extra) if extra else '')
    db = os.path.join(tmp, 'db.sqlite')
    if os.path.exists(db):
        os.remove(db)
    convert(evtrace, path, extra, 'sqlite', db)
    try:
        R = report_out(evtrace, path, extra, tmp)
        ref = Ref(db, R)
        ns = ref.unit == 'ns'
        end = ref.end if ref.end is not None else 0
        P = perfetto_out(evtrace, path, extra, tmp, proto_dir, end)
        C = chrome_out(evtrace, path, extra, tmp, ns)
        X = ctf_out(evtrace, path, extra, tmp, end)
        S = stats_out(evtrace, path, extra)
        for out, u in (('chrome', C['unit']), ('report', R['unit']), ('stats', S.get('time_unit')),
                       ('perfetto process name', P['unit']), ('ctf metadata', X['unit'])):
            same('time unit (%s)' % out, ref.unit, u)

        # running intervals and switch-ins
        for out, runs in (('perfetto', P['runs']), ('ctf', X['runs']), ('chrome', C['runs']), ('report', R['runs'])):
            compare_runs(out, ref, runs)
        same('perfetto vs ctf switch-ins', P['ins'], X['ins'])
        sctx = {}
        for c in S['contexts']:
            key = c['ctx'] if c['ctx'] is not None else ('isr' if c['class'] == 'isr' else 'run')
            sctx.setdefault(key, []).append(c)
        for i, (cid, cname, cls, cpu_time) in enumerate(ref.ctxs):
            label = ref.name(i)
            runs = ref.running.get(i, [])
            total = sum(t1 - t0 for t0, t1 in runs)
            ins = P['ins'].get(i, 0)
            if len(runs) != len(positive(P['runs'].get(i, []))):
                raise Disagree('context %s: sqlite running intervals %d, perfetto %d with a length' %
                               (label, len(runs), len(positive(P['runs'].get(i, [])))))
            same('chrome running slices of %s (switch-ins)' % label, ins, len(C['runs'].get(i, [])))
            rc = R['ctx'][i]
            same('report ctx %s run' % label, total, rc['run'])
            same('report ctx %s switches' % label, ins, rc['switches'])
            isr_in = isr_time_of(ref, R, i)
            same('report ctx %s isr (outermost ISR time inside its running)' % label, isr_in, rc['isr'])
            # 0 when the ISR time is larger (its interrupted context was switched out inside it)
            same('sqlite contexts.cpu_time of %s vs running - ISR time' % label, max(0, total - isr_in), cpu_time)
            key = cid if cid is not None else ('isr' if cls == 'isr' else 'run')
            cand = sctx.get(key, [])
            if len(cand) != 1:
                raise Disagree('stats: %d contexts match %s' % (len(cand), label))
            same('stats ctx %s cpu_time' % label, cpu_time, cand[0]['cpu_time'])
            same('stats ctx %s switches' % label, ins, cand[0]['switches'])

        # ISRs
        risr = [(cpu, t0, t1) for cpu, t0, t1, _, _, _, _ in ref.isrs]
        same('ISR intervals (perfetto)', risr, P['isrs'])
        same('ISR intervals (chrome)', risr, C['isrs'])
        same('ISR intervals (report)', risr, [(cpu, t0, t1) for cpu, t0, t1, _, _, _ in R['isrs']])
        same('ISR entries (ctf irq_handler_entry)', sorted((cpu, t0) for cpu, t0, _ in risr), X['entries'])
        check_interrupted(ref, R)
        rep_flags = {}
        for cpu, t0, t1, fl, _, _ in R['isrs']:
            rep_flags.setdefault((cpu, t0, t1), []).append(fl)
        finished, isr_lat = [], {}
        for cpu, t0, t1, depth, trunc, nm, _ in ref.isrs:
            fl = rep_flags[(cpu, t0, t1)].pop()
            same('ISR truncated flag at %d (report)' % t0, bool(trunc), bool(fl & 3))
            if not trunc:
                finished.append((cpu, t1))
            if not (fl & 2) and not (trunc and t1 in ref.loss_t):  # open at the end / closed by a loss
                isr_lat.setdefault(nm, []).append(t1 - t0)
        same('ISR exits (ctf irq_handler_exit = ISRs not truncated)', sorted(finished), X['exits'])
        want = {nm: (len(v), min(v), max(v), sum(v)) for nm, v in isr_lat.items()}
        got = {x['name']: (x['count'], x['min'], x['max'], x['sum']) for x in S['isrs']}
        same('stats isrs count/min/max/sum per name', want, got)

        # service / function slices
        rs = [(nm, cat, t0, t1) for _, cat, nm, t0, t1, _, _ in ref.slices]
        ref_named = per_name(rs)
        same('slices per (cat, name): [count, total] (perfetto)', ref_named, per_name(P['slices']))
        same('slices per (cat, name): [count, total] (report)', ref_named, per_name(R['slices']))
        same('every slice (name, cat, t0, t1) (perfetto)', sorted(rs), sorted(P['slices']))
        same('every slice (name, cat, t0, t1) (report)', sorted(rs), sorted(R['slices']))
        one_, rest = split_instants(ref, instant_svcs(evtrace, path, extra))
        check_chrome_slices(ref, C, P, one_, rest)
        check_stats_slices(ref, S, rest)

        # blocked states and what they are blocked on
        same('blocked states (ctx index, t0, t1, object) (perfetto)', ref.blocked, P['blocked'])
        same('blocked states (ctx index, t0, t1, object) (chrome)', ref.blocked, C['blocked'])

        # lost records
        for out, v in (('sqlite losses sum', ref.losses_sum), ('perfetto', P['lost']), ('chrome', C['lost']),
                       ('ctf discarded', X['lost']), ('stats', S['lost']['count']), ('report', R['lost'])):
            same('lost records (%s)' % out, ref.lost, v)
    except Disagree as e:
        fail('%s: %s' % (name, e))
    nrun = sum(len(v) for v in ref.running.values())
    TOTAL['runs'] += nrun
    TOTAL['isrs'] += len(ref.isrs)
    TOTAL['slices with a length'] += sum(1 for s_ in rs if s_[3] > s_[2])
    TOTAL['chrome pieces'] += len(C['pieces'])
    TOTAL['lost'] += ref.lost
    TOTAL['blocked states'] += len(ref.blocked)
    TOTAL['zero-length switch-ins'] += sum(len(v) - len(positive(v)) for v in P['runs'].values())
    TOTAL['ns traces' if ns else 'tick traces'] += 1
    say('ok %-44s %s: %d contexts, %d running intervals, %d ISRs, %d slices in %d names, %d lost: sqlite, perfetto, '
        'chrome, ctf, report and stats agree' % (name, ref.unit, len(ref.ctxs), nrun, len(ref.isrs), len(rs),
                                                 len(ref_named), ref.lost))


def instant_svcs(evtrace, path, extra):
    """Services recorded as one instant (kind svc), per name: their count (the timeline makes each
    a zero-length slice; SQLite cannot tell one from a zero-length enter/exit pair)."""
    r = run([evtrace, 'dump', '--json'] + extra + [path])
    out = {}
    for l in r.stdout.decode('utf-8').splitlines():
        if l.strip():
            e = json.loads(l)
            if e['kind'] == 'svc':
                out[e['name']] = out.get(e['name'], 0) + 1
    return out


def split_instants(ref, inst):
    """SQLite slices -> (one-instant services, the others): per name, that many zero-length,
    untruncated svc slices are the instants (which of them does not matter: same name and length)."""
    left = dict(inst)
    one_, rest = [], []
    for row in ref.slices:
        cid, cat, nm, t0, t1, trunc, depth = row
        if cat == 'svc' and t0 == t1 and not trunc and left.get(nm, 0) > 0:
            left[nm] -= 1
            one_.append(row)
        else:
            rest.append(row)
    if any(left.values()):
        raise Disagree('sqlite: fewer zero-length svc slices than svc instants in the dump: %r' %
                       {k: v for k, v in left.items() if v})
    return one_, rest


def check_chrome_slices(ref, C, P, one_, rest):
    """Chrome: a one-instant service is an instant ("i", cat svc); any other slice is drawn as B/E
    pieces inside its context's running slices (an ISR context's whole), nested at most
    CHROME_MAX_DEPTH deep: per name, the first pieces (no args.resumed) are the slices that began
    while their context ran (t0 inside a running interval, ends included, zero-length switch-ins
    too), and the pieces add up to each slice's time inside its context's running intervals."""
    isr_ctx = set(i for i, c in enumerate(ref.ctxs) if c[2] == 'isr')
    if not C['sched'] and not ref.running:  # no scheduling recorded: every context's slices drawn whole
        isr_ctx = set(range(len(ref.ctxs)))
    want_inst, got_inst = {}, {}
    for row in one_:
        want_inst[row[2]] = want_inst.get(row[2], 0) + 1
    for i, nm, t in C['instants']:
        got_inst[nm] = got_inst.get(nm, 0) + 1
    same('chrome svc instants per name (one-instant services)', want_inst, got_inst)
    want, got = {}, {}
    for cid, cat, nm, t0, t1, trunc, depth in rest:
        if depth >= CHROME_MAX_DEPTH:
            continue
        i = ref.index(cid, 'run', ('slice', nm, t0, t1))
        whole = i in isr_ctx
        runs = ref.running.get(i, []) + [x for x in P['runs'].get(i, []) if x[0] == x[1]]
        began = whole or any(a_ <= t0 <= b_ for a_, b_ in runs)
        w = want.setdefault(nm, [0, 0])
        w[0] += 1 if began else 0
        w[1] += (t1 - t0) if whole else overlap((t0, t1), runs)
    for i, nm, cat, t0, t1, resumed in C['pieces']:
        g = got.setdefault(nm, [0, 0])
        g[1] += t1 - t0
        g[0] += 0 if resumed else 1
    want = {k: v for k, v in want.items() if v != [0, 0]}  # never drawn: no key in chrome either
    same('chrome slice pieces per name: [first pieces, time inside running]', want, got)


def check_stats_slices(ref, S, rest):
    """stats: per name count/min/max/sum of the slices with a duration: not a one-instant service,
    not open at the end, not closed by a loss (stats.c)."""
    want = {}
    for cid, cat, nm, t0, t1, trunc, depth in rest:
        if trunc and (t1 == ref.end or t1 in ref.loss_t):
            continue
        want.setdefault((cat, nm), []).append(t1 - t0)
    want = {k: (len(v), min(v), max(v), sum(v)) for k, v in want.items()}
    got = {}
    for cat, key in (('svc', 'services'), ('func', 'functions')):
        for x in S[key]:
            got[(cat, x['name'])] = (x['count'], x['min'], x['max'], x['sum'])
    same('stats services/functions count/min/max/sum per name', want, got)


def smp_copy(path, cpu, tmp):
    """A copy of a little-endian TXTB buffer (48-byte header, 32 x 48-byte registry, 32-byte event
    slots from offset 1584: ctx, prio, id, ts, info1..4) whose slots 300..399 say core `cpu`
    (ThreadX SMP: bits 24-31 of a kernel event id): contexts move between two CPUs."""
    with open(path, 'rb') as f:
        raw = bytearray(f.read())
    for i in range(300, 400):
        at = 1584 + 32 * i + 8 + 3
        if raw[at] != 0:
            fail('%s: slot %d already has core bits' % (path, i))
        raw[at] = cpu
    out = os.path.join(tmp, 'smp_cpu%d_%s' % (cpu, os.path.basename(path)))
    with open(out, 'wb') as f:
        f.write(raw)
    return out


def lost_isr_exit_copy(path, tmp):
    """A copy of the real ThreadX buffer whose ISR_EXIT at offset 13904 is a user event instead
    (id 0xA60004: as if TraceX's event filter had dropped the exit): the ISR stays open while a
    thread records events, the thread it interrupted is switched out inside it, and its ISR time
    exceeds its running time (stats once wrapped its cpu_time to 2^64 - 52)."""
    with open(path, 'rb') as f:
        raw = bytearray(f.read())
    if raw[13904 + 8:13904 + 12] != (4).to_bytes(4, 'little'):
        fail('%s: no ISR_EXIT at offset 13904' % path)
    raw[13904 + 10] = 0xA6
    out = os.path.join(tmp, 'lost_isr_exit_' + os.path.basename(path))
    with open(out, 'wb') as f:
        f.write(raw)
    return out


def utk_trace(test_bin, tmp):
    """The μT-Kernel scenario trace that tests/kernel/utk/test_utk_scenario writes."""
    env = dict(os.environ, TMPDIR=tmp, EVT_TEST_KEEP_TMP="1")  # its file is read after it exits
    r = subprocess.run([test_bin], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    if r.returncode != 0:
        fail('%s failed: %s' % (test_bin, r.stdout.decode()[-2000:]))
    found = glob.glob(os.path.join(tmp, 'evtrace-test-*', 'utk_scenario.trx'))
    if len(found) != 1:
        fail('no utk_scenario.trx from %s' % test_bin)
    return found[0]


def main():
    if len(sys.argv) != 5:
        fail(__doc__)
    evtrace, data, proto_dir, utk = sys.argv[1:]
    for tool in ('protoc', 'babeltrace2'):
        if not shutil.which(tool):
            fail('%s not found (needed to read the outputs back)' % tool)
    with tempfile.TemporaryDirectory() as tmp:
        paths = readable_samples(evtrace, data)
        for fmt in ('threadx_tracex', 'threadx_real', 'rkh', 'etw', 'xray'):
            if not any(os.sep + fmt + os.sep in p for p in paths):
                fail('no readable %s sample' % fmt)
        work = os.path.join(tmp, 'w')
        os.mkdir(work)
        runs = [(p, []) for p in paths]
        runs.append((utk_trace(utk, tmp), []))
        syn = os.path.join(tmp, 'lossy.syn')
        with open(syn, 'w') as f:  # 100 MHz, a loss every 1000 events
            f.write('evtrace-synthetic 1\nevents 5000\nthreads 4\nhz 100000000\nlost_every 1000\n')
        runs.append((syn, []))
        host = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')
        for s in ('small.syn', 'weird.syn'):
            if os.path.exists(os.path.join(host, s)):
                runs.append((os.path.join(host, s), []))
        tx = os.path.join(data, 'threadx_tracex', 'demo_threadx.trx')
        for cpu in (1, 100):  # SMP: slots 300..399 recorded on another core (a CPU >= 64 shares slot 63)
            runs.append((smp_copy(tx, cpu, tmp), []))
        runs.append((lost_isr_exit_copy(os.path.join(data, 'threadx_real', 'nowrap_m32le.trx'), tmp), []))
        for p in paths:  # ThreadX with a clock too: every output in ns (without it: ticks, above)
            if os.sep + 'threadx' in p:
                runs.append((p, ['--clock-hz', '3000000']))
        for p, extra in runs:
            check(evtrace, p, extra, work, proto_dir, print)
    empty = [k for k, v in TOTAL.items() if not v]
    if empty:  # the comparisons above must have compared something of each kind
        fail('nothing compared for: %s (%r)' % (', '.join(empty), TOTAL))
    print('compared: %s' % ', '.join('%s %d' % kv for kv in TOTAL.items()))
    print('PASS')


if __name__ == '__main__':
    main()

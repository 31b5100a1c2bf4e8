"""Oracle test of the Perfetto exporter (runs wherever protoc is: no upstream schema needed). For every
readable sample, two synthetic traces and the μT-Kernel demo's trace: convert to Perfetto, decode
with `protoc --decode` against tests/host/data/perfetto_subset.proto (Perfetto's field numbers) and
check against `evtrace dump --json` / `stats --json` of the same trace:
- sched_switch: the same switches, in order, with the same prev_state, as an independent
  re-implementation of the documented scheduling rules (perfetto_sched_model.py) computes from the
  dump; per CPU each switch's prev is the previous switch's next; for the μT-Kernel demo, each task's switches-in equal the kernel's own count of
  its dispatches; sched_waking the same wake-ups as the model;
- a thread (ThreadDescriptor + ProcessTree, tid = index + 2, pid 1) per non-ISR context, named from
  the trace; ISR contexts never in sched events;
- ISR slices on "ISR cpu N" tracks, one per isr_enter, named by the timeline's ISR label; service/function
  slices on their context's track in order (a service recorded as one instant: a zero-length slice
  with its id and args, no instant); every other event an instant, in order;
- lost data: one "lost events" instant per loss with its count, a cumulative counter;
- flows: each id leaves one instant and ends at one later instant; the wake flows are the model's
  (waker at the wake-up -> the woken context's next run); counters: one sample per
  counter field of the events (queue depth, semaphore count, ...), same values; CPU load in 0..100.
Usage: perfetto_check.py EVTRACE SAMPLES_DIR PROTO_DIR [UTK_DEMO]"""
import os
import sys
import tempfile
from export_common import fail, run, readable_samples, dump, info, one
import json
from collections import Counter
from perfetto_decode import decode, Trace
from perfetto_sched_model import model, names_of, event_time, LINUX_STATE, NOCTX, caps_of

LABEL_KEYS = ('function', 'func', 'service', 'svc', 'syscall')
IRQ_KEYS = ('irq', 'intno', 'dintno', 'vector', 'isr')
SPAN_KINDS = ('isr_enter', 'isr_exit', 'svc_enter', 'svc_exit', 'func_enter', 'func_exit')
COUNTER_FIELDS = {'enqueued': 'queue depth', 'sem_count': 'semaphore count', 'available': 'available',
                  'flags': 'event flags', 'suspended': 'waiters'}


def label(e):
    """Span label, the rules of src/host/timeline/spans.h."""
    f = e.get('fields', {})
    m = e.get('meaning', {})
    if isinstance(m, dict) and isinstance(m.get('label'), str):  # m.label when the reader gives one
        return m['label']
    for k in LABEL_KEYS:
        if isinstance(f.get(k), str):
            return f[k]
    if e['kind'].startswith('func_') and e['args']:
        return 'fn#%d' % e['args'][0]
    if e['kind'].startswith('isr_'):
        m = e.get('meaning', {})
        if isinstance(m, dict) and isinstance(m.get('irq'), int):  # EVT_M_IRQ first
            return '%s #%d' % (e['name'], m['irq'])
        for k in IRQ_KEYS:
            if isinstance(f.get(k), int) and not isinstance(f.get(k), bool):
                return '%s #%d' % (e['name'], f[k])
    return e['name']


def isr_label(e):
    """ISR interval name, the timeline's rule: the meaning's label, else field irq_name, else
    "<name> #<id>" with the id from the meaning's irq, else isr_id, irq, intno, dintno, vector or
    isr, else the name."""
    f = e.get('fields', {})
    m = e.get('meaning', {})
    if isinstance(m, dict) and isinstance(m.get('label'), str):
        return m['label']
    if isinstance(f.get('irq_name'), str):
        return f['irq_name']
    if isinstance(m, dict) and isinstance(m.get('irq'), int):  # EVT_M_IRQ first
        return '%s #%d' % (e['name'] or 'ISR', m['irq'])
    for k in ('isr_id',) + IRQ_KEYS:
        if isinstance(f.get(k), int) and not isinstance(f.get(k), bool):
            return '%s #%d' % (e['name'] or 'ISR', f[k])
    return e['name'] or 'ISR'


def stats(evtrace, path):
    r = run([evtrace, 'stats', '--json', path])
    if r.returncode not in (0, 1):
        fail('stats failed on %s: %s' % (path, r.stderr.decode()))
    return json.loads(r.stdout.decode())


def check(evtrace, proto_dir, path, tmp, acct=None, proto_file='perfetto_subset.proto'):
    base = os.path.basename(path)
    out = os.path.join(tmp, base + '.pftrace')
    r = run([evtrace, 'convert', '-q', '--force', path, '-o', out, '--to', 'perfetto'])
    if r.returncode not in (0, 1):
        fail('convert failed: ' + r.stderr.decode())
    _, packets = decode(out, proto_dir, proto_file)
    T = Trace(packets)
    evs = dump(evtrace, path)
    st = stats(evtrace, path)
    classes = {c['ctx']: c['class'] for c in st['contexts'] if c['ctx'] is not None}
    names = names_of(evs)

    def name(key):
        if key is None:
            return 'swapper'
        if key == NOCTX:
            return None  # "(no context: <class>)": compared by pid only
        return names.get(key, 'ctx 0x%x' % key)

    # Threads: one per non-ISR context, named from the trace; the process holds them.
    ctx_keys = []
    for e in evs:
        if e.get('ctx') is not None and e['ctx'] not in ctx_keys:
            ctx_keys.append(e['ctx'])
    want = sorted({name(k) for k in ctx_keys if classes.get(k) != 'isr'})
    got = set(T.thread_name.values())
    if not set(want) <= got:
        fail('%s: thread names %r lack %r' % (base, sorted(got), sorted(set(want) - got)))
    if any(tg != 1 for tg in T.tree_threads.values()) or 1 not in T.tree_procs:
        fail('%s: ProcessTree threads not all in process 1' % base)
    isr_names = {name(k) for k in ctx_keys if classes.get(k) == 'isr'} - set(want)

    # Scheduling: per-CPU continuity, the model's switches and wakings.
    last = {}
    for ts, cpu, pid, f in T.switches:
        pp, np_ = int(f['prev_pid']), int(f['next_pid'])
        if pid != pp:
            fail('%s: sched_switch at %d: FtraceEvent.pid %d != prev_pid %d' % (base, ts, pid, pp))
        if last.get(cpu, 0) != pp:
            fail('%s: sched_switch at %d on cpu %d: prev_pid %d, but %d was running' % (base, ts, cpu, pp, last.get(cpu, 0)))
        if int(f['prev_state']) not in (0, 1, 4, 16):
            fail('%s: prev_state %s' % (base, f['prev_state']))
        if (pp == 0) != (f['prev_comm'] == 'swapper') or (np_ == 0) != (f['next_comm'] == 'swapper'):
            fail('%s: idle is not pid 0 "swapper": %r' % (base, f))
        for pid_ in (pp, np_):
            if pid_ and T.thread_name.get(pid_) in isr_names:
                fail('%s: ISR context %r in a sched_switch' % (base, T.thread_name.get(pid_)))
        last[cpu] = np_
    m = model(evs, classes, caps_of(evtrace, path))

    def pname(pid):
        return 'swapper' if pid == 0 else T.thread_name.get(pid)

    got_sw = [(ts, cpu, pname(int(f['prev_pid'])), pname(int(f['next_pid'])), int(f['prev_state']))
              for ts, cpu, _, f in T.switches]
    want_sw = [(t, cpu, name(p), name(n), LINUX_STATE[ps] if p is not None else 0) for t, cpu, p, n, ps in m.switches]
    got_cmp = [(t, c, p if w[2] is not None else None, n if w[3] is not None else None, s)
               for (t, c, p, n, s), w in zip(got_sw, want_sw)]
    if len(got_sw) != len(want_sw) or got_cmp != want_sw:
        for i, (g, w) in enumerate(zip(got_cmp, want_sw)):
            if g != w:
                fail('%s: switch %d: exported %r, model %r' % (base, i, g, w))
        fail('%s: %d switches exported, model %d' % (base, len(got_sw), len(want_sw)))
    got_wk = sorted((ts, cpu, pname(int(f['pid']))) for ts, cpu, _, f in T.wakings)
    want_wk = sorted((t, cpu, name(tg)) for t, cpu, tg, _ in m.wakings if tg != NOCTX)
    if [g if w[2] is not None else g[:2] + (None,) for g, w in zip(got_wk, want_wk)] != want_wk or len(got_wk) != len(want_wk):
        fail('%s: sched_waking %r... != model %r...' % (base, got_wk[:5], want_wk[:5]))
    if acct:  # the kernel's own dispatch count per task
        for t in acct['tasks']:
            n = sum(1 for _, _, _, f in T.switches if f['next_comm'] == t['name'])
            if n != t['runs']:
                fail('%s: task %s switched in %d times, the kernel dispatched it %d times' % (base, t['name'], n, t['runs']))

    # ISR slices: "ISR cpu N" tracks, one per isr_enter, named by label, in order.
    isr_tracks = {u for u in T.tracks if (T.track_name(u) or '').startswith('ISR cpu ')}
    got_isr = [(ts, nm) for tr, ts, nm, cat, _ in T.slices if tr in isr_tracks]
    want_isr = [(event_time(e), isr_label(e)) for e in evs if e['kind'] == 'isr_enter']
    if sorted(got_isr) != sorted(want_isr) or any(cat != 'isr' for tr, _, _, cat, _ in T.slices if tr in isr_tracks):
        fail('%s: ISR slices %r... != isr_enter %r...' % (base, got_isr[:4], want_isr[:4]))
    # Service / function slices per context track, in order (svc instants are zero-length slices).
    by_track = {}
    for tr, ts, nm, cat, _ in T.slices:
        if tr not in isr_tracks:
            by_track.setdefault(cat, []).append((ts, nm))
    for cat, kinds in (('svc', ('svc_enter', 'svc')), ('func', ('func_enter',))):
        w = sorted((event_time(e), label(e)) for e in evs if e['kind'] in kinds)
        if sorted(by_track.get(cat, [])) != w:
            fail('%s: %s slices %d != %d events %r' % (base, cat, len(by_track.get(cat, [])), len(w), kinds))
    # A service recorded as one instant is its zero-length slice, which carries the event's
    # annotations (id, args), and has no instant beside it (until 5 Dec 2026 it had one, a second
    # row of trace_processor's `slice` table for the same call).
    svc_ann = Counter((ts, nm, ann.get('id'), tuple(ann.get('arg%d' % i) for i in range(4)))
                      for tr, ts, nm, cat, ann in T.slices if tr not in isr_tracks and cat == 'svc')
    want_ann = Counter((event_time(e), label(e), e.get('id'), tuple((e.get('args', []) + [None] * 4)[:4]))
                       for e in evs if e['kind'] == 'svc')
    if want_ann - svc_ann:
        fail('%s: one-instant services without a zero-length slice carrying their id and args: %r' %
             (base, list((want_ann - svc_ann).items())[:3]))
    # ... and that slice is one TYPE_INSTANT packet, not a begin and an end at one time (the same
    # `slice` row in trace_processor; until 7 Dec 2026 the end's packet was 7 % of a recorded
    # ThreadX trace's bytes).
    one = Counter((ts, nm, ann.get('id'), tuple(ann.get('arg%d' % i) for i in range(4)))
                  for tr, ts, nm, cat, ann in T.one_packet if tr not in isr_tracks and cat == 'svc')
    if one != want_ann:
        fail('%s: %d one-instant services, %d written as one instant packet' %
             (base, sum(want_ann.values()), sum(one.values())))
    # Instants: every event that is neither a span end point, a one-instant service nor a loss, in order.
    got_inst = [(ts, nm) for _, ts, nm, cat, _, _, _ in T.instants if cat not in ('flow', 'lost')]
    want_inst = [(event_time(e), e['name']) for e in evs if e['kind'] not in SPAN_KINDS + ('svc', 'lost')]
    if got_inst != want_inst:
        fail('%s: %d instants != %d events (first difference %r)' % (base, len(got_inst), len(want_inst),
             next(((g, w) for g, w in zip(got_inst, want_inst) if g != w), None)))
    # ... and their text: the object's name (`object`) and each string field, written whole or, since
    # 7 Dec 2026, interned (string_value_iid), read back to the same text.
    got_txt = [ann for _, _, _, cat, ann, _, _ in T.instants if cat not in ('flow', 'lost')]
    for ann, e in zip(got_txt, [e for e in evs if e['kind'] not in SPAN_KINDS + ('svc', 'lost')]):
        want_t = {('object' if k == 'target_name' else k): v for k, v in e.get('fields', {}).items()
                  if isinstance(v, str)}
        got_t = {k: ann.get(k) for k in want_t}
        if got_t != want_t:
            fail('%s: instant %s at %s has text %r, the event %r' % (base, e['name'], event_time(e), got_t, want_t))
    short = sum(1 for e in evs for v in e.get('fields', {}).values() if isinstance(v, str) and 0 < len(v.encode()) <= 64)
    if short and not T.interned_values:
        fail('%s: %d short string values, none interned' % (base, short))
    # Lost data.
    lost = [e for e in evs if e['kind'] == 'lost']
    got_lost = [(ts, ann.get('count')) for _, ts, nm, cat, ann, _, _ in T.instants if cat == 'lost']
    if got_lost != [(event_time(e), e.get('count')) for e in lost]:
        fail('%s: lost instants %r != %r' % (base, got_lost[:4], [(event_time(e), e.get('count')) for e in lost][:4]))
    lost_uuid = [u for u in T.tracks if T.track_name(u) == 'lost events' and 'counter' in T.tracks[u]]
    want_c, tot = [], 0
    for e in lost:
        tot += e.get('count', 0)
        want_c.append(tot)
    got_lc = [v for _, v in T.counters.get(lost_uuid[0], [])] if lost_uuid else []
    if got_lc != want_c:
        fail('%s: lost counter != %r' % (base, want_c))
    # Flows: one start and one end per id, the end not before the start.
    starts, ends = {}, {}
    for tr, ts, nm, cat, _, fo, ft in T.instants:
        for i in fo:
            if i in starts:
                fail('%s: flow %d starts twice' % (base, i))
            starts[i] = ts
        for i in ft:
            if i in ends:
                fail('%s: flow %d ends twice' % (base, i))
            ends[i] = ts
    if set(starts) != set(ends) or any(ends[i] < starts[i] for i in starts):
        fail('%s: flows do not pair up (%d starts, %d ends)' % (base, len(starts), len(ends)))
    # Wake flows: from the waker at the wake-up to the woken context's next run, as the model has them.
    fstart, fend = {}, {}
    for tr, ts, nm, cat, _, fo, ft in T.instants:
        if cat == 'flow' and nm == 'wake':
            for i in fo:
                fstart[i] = (ts, T.track_name(tr))
            for i in ft:
                fend[i] = (ts, T.track_name(tr))
    got_wf = sorted((fstart[i][0], fend[i][0], fstart[i][1], fend[i][1]) for i in fstart if i in fend)
    want_wf = sorted((t0, t1, name(w), name(n)) for t0, t1, w, n in m.flows)
    got_wf = [(a, b, c if w[2] is not None else None, d if w[3] is not None else None)
              for (a, b, c, d), w in zip(got_wf, want_wf)] if len(got_wf) == len(want_wf) else got_wf
    if got_wf != want_wf:
        fail('%s: %d wake flows, model %d (first difference %r)' % (base, len(fstart), len(want_wf),
             next(((g, w) for g, w in zip(got_wf, want_wf) if g != w), None)))
    # Counters from the events' counter fields, on a track per object and counter.
    want_cnt = sorted((cn, event_time(e), e['fields'][k]) for e in evs for k, cn in COUNTER_FIELDS.items()
                      if isinstance(e.get('fields', {}).get(k), int) and 'target' in e.get('fields', {})
                      and e['kind'] not in ('thread_run', 'thread_stop', 'lost'))
    got_cnt = sorted((cn, ts, v) for u, samples in T.counters.items() for cn in COUNTER_FIELDS.values()
                     if (T.track_name(u) or '').endswith(' ' + cn) or T.track_name(u) == cn for ts, v in samples)
    if got_cnt != want_cnt:
        fail('%s: counter samples %r... != %r...' % (base, got_cnt[:4], want_cnt[:4]))
    load = [v for u, s in T.counters.items() if (T.track_name(u) or '').startswith('CPU load % ') for _, v in s]
    if any(v < 0 or v > 100.0001 for v in load) or (T.switches and not load):
        fail('%s: CPU load samples out of 0..100 or missing' % base)
    print('%s: %d packets, %d sched_switch, %d sched_waking, %d threads, %d ISR + %d other slices, %d instants, '
          '%d flows, %d counter samples, %d lost: ok' %
          (base, len(packets), len(T.switches), len(T.wakings), len(T.thread_name), len(got_isr),
           len(T.slices) - len(got_isr), len(got_inst), len(starts), len(got_cnt), len(lost)))


def check_utk(evtrace, utk, proto_dir, tmp, proto_file='perfetto_subset.proto'):
    """The μT-Kernel demo's trace, with the kernel's own accounting of the same run."""
    trx, acct = os.path.join(tmp, 'utk.trx'), os.path.join(tmp, 'acct.json')
    r = run([utk, trx, acct])
    if r.returncode != 0:
        fail('utk_demo failed: ' + r.stderr.decode())
    with open(acct) as f:
        check(evtrace, proto_dir, trx, tmp, json.load(f), proto_file)


def main():
    evtrace, samples, proto_dir = sys.argv[1:4]
    utk = sys.argv[4] if len(sys.argv) > 4 else None
    if run(['protoc', '--version']).returncode != 0:
        fail('protoc missing (package protobuf-compiler)')
    with tempfile.TemporaryDirectory() as tmp:
        for p in readable_samples(evtrace, samples) + [os.path.join(proto_dir, 'small.syn'),
                                                       os.path.join(proto_dir, 'weird.syn')]:
            check(evtrace, proto_dir, p, tmp)
        if utk:
            check_utk(evtrace, utk, proto_dir, tmp)


if __name__ == '__main__':
    main()

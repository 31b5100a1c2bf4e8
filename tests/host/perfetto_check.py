"""Oracle test of the Perfetto exporter: for every readable sample and a synthetic trace (services,
functions, ISRs, losses), convert to Perfetto, decode the protobuf with `protoc --decode` against
tests/host/data/perfetto_subset.proto (the fields we use, Perfetto's field numbers), and check
against `evtrace dump --json` of the same trace: one thread track per context, balanced slices,
the names and timestamps of the ISR/service/function slices, every other event as an instant in
order, running slices named after contexts, the lost-events counter, interning."""
import os
import sys
import tempfile
from export_common import fail, run, readable_samples, dump, info, parse_textproto, one

SPAN = {'isr_enter': ('isr', 1), 'isr_exit': ('isr', 0), 'svc_enter': ('svc', 1), 'svc_exit': ('svc', 0),
        'func_enter': ('func', 1), 'func_exit': ('func', 0)}


LABEL_KEYS = ('function', 'func', 'service', 'svc', 'syscall')
IRQ_KEYS = ('isr_id', 'irq', 'intno', 'dintno', 'vector', 'isr')


def label(e):
    """Span label, the rules of src/host/analysis/spans.h."""
    f = e.get('fields', {})
    for k in LABEL_KEYS:
        if isinstance(f.get(k), str):
            return f[k]
    if e['kind'].startswith('func_') and e['args']:
        return 'fn#%d' % e['args'][0]
    if e['kind'].startswith('isr_'):
        if isinstance(f.get('irq_name'), str):
            return f['irq_name']
        for k in IRQ_KEYS:
            if isinstance(f.get(k), int) and not isinstance(f.get(k), bool):
                return '%s #%d' % (e['name'], f[k])
    return e['name']


def ns(ev, hz):
    if 't_ns' in ev:
        return ev['t_ns']
    return ev['ts'] * 1000000000 // hz if hz else ev['ts']


def check(evtrace, proto_dir, path, tmp):
    out = os.path.join(tmp, os.path.basename(path) + '.pftrace')
    r = run([evtrace, 'convert', '-q', path, '-o', out, '--to', 'perfetto'])
    if r.returncode not in (0, 1):
        fail('convert failed: ' + r.stderr.decode())
    with open(out, 'rb') as f:
        d = run(['protoc', '--proto_path=' + proto_dir, '--decode=perfetto.protos.Trace', 'perfetto_subset.proto'],
                stdin=f)
    if d.returncode != 0:
        fail('protoc cannot decode %s: %s' % (out, d.stderr.decode()))
    trace = parse_textproto(d.stdout.decode())
    packets = trace.get('packet', [])
    evs = dump(evtrace, path)
    hz = info(evtrace, path).get('clock_hz') or 0
    if one(packets[0], 'sequence_flags') != '1':
        fail('first packet does not clear the incremental state')
    names, cats, dnames, tracks = {}, {}, {}, {}
    begins = {}   # track -> open slice depth
    begin_seq = {}  # track -> [(ts, name)] of svc/func/isr slice begins
    slices = {}   # category -> BEGIN count
    instants = []  # (ts, name)
    running = []  # names of running slices in order
    isr_slices = 0
    counters = []  # lost-events counter values
    for p in packets:
        if one(p, 'trusted_packet_sequence_id') != '1':
            fail('packet without sequence id 1')
        for idata in p.get('interned_data', []):
            for key, tab in (('event_names', names), ('event_categories', cats), ('debug_annotation_names', dnames)):
                for e in idata.get(key, []):
                    tab[one(e, 'iid')] = one(e, 'name')
        for td in p.get('track_descriptor', []):
            tracks[one(td, 'uuid')] = td
        for te in p.get('track_event', []):
            t = one(te, 'type')
            tr = one(te, 'track_uuid')
            if tr not in tracks:
                fail('event on undescribed track %s' % tr)
            nm = names.get(one(te, 'name_iid'))
            cat = cats.get(one(te, 'category_iids'))
            if t in ('TYPE_SLICE_BEGIN', 'TYPE_INSTANT') and nm is None:
                fail('name iid not interned before use')
            for da in te.get('debug_annotations', []):
                if one(da, 'name_iid') not in dnames:
                    fail('annotation name iid not interned')
            if t == 'TYPE_SLICE_BEGIN':
                begins[tr] = begins.get(tr, 0) + 1
                slices[cat] = slices.get(cat, 0) + 1
                if cat == 'running':
                    running.append(nm)
                if cat == 'isr':
                    isr_slices += 1
                if cat in ('isr', 'svc', 'func'):
                    begin_seq.setdefault(tr if cat != 'isr' else 'isr', []).append((int(one(p, 'timestamp')), nm))
            elif t == 'TYPE_SLICE_END':
                if begins.get(tr, 0) <= 0:
                    fail('slice end without begin on track %s' % tr)
                begins[tr] -= 1
            elif t == 'TYPE_COUNTER':
                if 'counter' not in tracks[tr]:
                    fail('counter event on a track without CounterDescriptor')
                counters.append(int(one(te, 'counter_value')))
            elif t == 'TYPE_INSTANT':
                instants.append((int(one(p, 'timestamp')), nm))
    if any(v != 0 for v in begins.values()):
        fail('unclosed slices at the end: %r' % begins)
    # Thread tracks: one per context of the source, named after it.
    want_ctx = {}
    for e in evs:
        if e.get('ctx') is not None:
            want_ctx.setdefault(e['ctx'], e.get('ctx_name') or 'ctx 0x%x' % e['ctx'])
    got_threads = sorted(one(one(td, 'thread'), 'thread_name') for td in tracks.values() if 'thread' in td)
    if got_threads != sorted(want_ctx.values()):
        fail('thread tracks %r != contexts %r' % (got_threads, sorted(want_ctx.values())))
    # Slices and instants per kind (enter/exit pairing as in src/host/analysis/spans.h).
    n_isr = sum(1 for e in evs if e['kind'] == 'isr_enter')
    if isr_slices != n_isr:
        fail('ISR slices %d != isr_enter events %d' % (isr_slices, n_isr))
    for cat, kind in (('svc', 'svc_enter'), ('func', 'func_enter')):
        n = sum(1 for e in evs if e['kind'] == kind and e.get('ctx') is not None)
        if slices.get(cat, 0) != n:
            fail('%s slices %d != %s events %d' % (cat, slices.get(cat, 0), kind, n))
    # Slice names and timestamps: per context track (uuid 0x10000 + order of first appearance),
    # the labels of its svc/func enters in order; on the ISR tracks, the isr_enter labels.
    order = {}
    for e in evs:
        if e.get('ctx') is not None and e['ctx'] not in order:
            order[e['ctx']] = len(order)
    want_seq = {}
    for e in evs:
        if e['kind'] in ('svc_enter', 'func_enter') and e.get('ctx') is not None:
            want_seq.setdefault(str(0x10000 + order[e['ctx']]), []).append((ns(e, hz), label(e)))
        elif e['kind'] == 'isr_enter':
            want_seq.setdefault('isr', []).append((ns(e, hz), label(e)))
    if begin_seq != want_seq:
        for k in sorted(set(begin_seq) | set(want_seq)):
            if begin_seq.get(k) != want_seq.get(k):
                fail('slices on track %s: %r... != %r...' % (k, (begin_seq.get(k) or [])[:3], (want_seq.get(k) or [])[:3]))
    want_inst = [(ns(e, hz), e['name']) for e in evs if e['kind'] not in SPAN]
    got_inst = [i for i in instants]
    # Unmatched exits also become instants; every non-span event must be there, in order.
    it = iter(got_inst)
    for w in want_inst:
        for g in it:
            if g == w:
                break
        else:
            fail('instant %r missing or out of order' % (w,))
    # Lost data: the counter track holds the cumulative count after each loss.
    want_c, tot = [], 0
    for e in evs:
        if e['kind'] == 'lost':
            tot += e.get('count', 0)
            want_c.append(tot)
    if counters != want_c:
        fail('lost counter values %r != %r' % (counters, want_c))
    # Running slices: named after contexts, at least one when any context runs.
    for nm in running:
        if nm not in want_ctx.values():
            fail('running slice %r is not a context' % nm)
    if want_ctx and not running:
        fail('no running slice although the trace has contexts')
    print('%s: %d packets, %d tracks, %d slices %r, %d instants, %d running slices: ok' %
          (os.path.basename(path), len(packets), len(tracks), sum(slices.values()), slices, len(instants),
           len(running)))


def main():
    evtrace, samples, proto_dir = sys.argv[1:4]
    r = run(['protoc', '--version'])
    if r.returncode != 0:
        fail('protoc missing (package protobuf-compiler)')
    with tempfile.TemporaryDirectory() as tmp:
        for p in readable_samples(evtrace, samples) + [os.path.join(proto_dir, 'small.syn'), os.path.join(proto_dir, 'weird.syn')]:
            check(evtrace, proto_dir, p, tmp)


if __name__ == '__main__':
    main()

"""Decodes evtrace's Perfetto output with protoc (against tests/host/data/perfetto_subset.proto, or
Perfetto's own perfetto_trace.proto in the CI-only test) and gathers what the export tests check:
tracks, slices, instants, counters, flows, sched_switch / sched_waking, thread names. A field the
schema does not know is a failure, so the output holds nothing but the schema's fields."""
import re
from export_common import fail, run, parse_textproto, one


def decode(path, proto_dir, proto_file='perfetto_subset.proto'):
    with open(path, 'rb') as f:
        d = run(['protoc', '--proto_path=' + proto_dir, '--decode=perfetto.protos.Trace', proto_file], stdin=f)
    if d.returncode != 0:
        fail('protoc cannot decode %s against %s: %s' % (path, proto_file, d.stderr.decode()))
    text = d.stdout.decode('utf-8')
    # protoc prints a field the schema does not know (or knows with another wire type) by number
    unknown = re.search(r'^\s*[0-9]+(: | \{)', text, re.M)
    if unknown:
        fail('%s: a field %s does not know: %r' % (path, proto_file, unknown.group(0).strip()))
    return text, parse_textproto(text).get('packet', [])


class Trace:
    """What a decoded trace holds, in packet order. Fails on structural errors (track events on
    undescribed tracks, iids used before they are interned, unbalanced slices)."""

    def __init__(self, packets):
        self.packets = packets
        self.tracks = {}          # uuid -> latest TrackDescriptor
        self.thread_name = {}     # tid -> latest name (ThreadDescriptor and ProcessTree)
        self.tree_threads = {}    # tid -> tgid from ProcessTree
        self.tree_procs = {}      # pid -> cmdline
        self.slices = []          # (track, ts, name, cat, annotations): SLICE_BEGIN, and an
                                  # INSTANT of category svc/func (a zero-length slice)
        self.one_packet = []      # those instants alone: (track, ts, name, cat, annotations)
        self.ends = []            # (track, ts, annotations)
        self.closed = []          # (track, t0, t1, name, cat): paired by nesting per track
        self.instants = []        # (track, ts, name, cat, annotations, flow_ids, terminating_flow_ids)
        self.counters = {}        # track -> [(ts, value)]: TYPE_COUNTER and extra counter values
        self.extra_counters = 0   # how many of them were extra counter values
        self.interned_values = 0  # annotations whose string value is interned
        self.switches = []        # (ts, cpu, pid, fields dict)
        self.wakings = []         # (ts, cpu, pid, fields dict)
        names, cats, dnames, svals = {}, {}, {}, {}
        stacks = {}
        if not packets or one(packets[0], 'sequence_flags') != '1':
            fail('the first packet does not clear the incremental state')
        for p in packets:
            for idata in p.get('interned_data', []):
                for key, tab in (('event_names', names), ('event_categories', cats),
                                 ('debug_annotation_names', dnames)):
                    for e in idata.get(key, []):
                        tab[one(e, 'iid')] = one(e, 'name')
                for e in idata.get('debug_annotation_string_values', []):
                    if one(e, 'iid') in svals:  # an iid names one string for the whole sequence
                        fail('string value iid %s interned twice' % one(e, 'iid'))
                    svals[one(e, 'iid')] = one(e, 'str', '')
            for td in p.get('track_descriptor', []):
                self.tracks[one(td, 'uuid')] = td
                for th in td.get('thread', []):
                    self.thread_name[int(one(th, 'tid'))] = one(th, 'thread_name')
            for pt in p.get('process_tree', []):
                for pr in pt.get('processes', []):
                    self.tree_procs[int(one(pr, 'pid'))] = one(pr, 'cmdline')
                for th in pt.get('threads', []):
                    self.tree_threads[int(one(th, 'tid'))] = int(one(th, 'tgid'))
                    self.thread_name[int(one(th, 'tid'))] = one(th, 'name')
            for b in p.get('ftrace_events', []):
                cpu = int(one(b, 'cpu', '0'))
                for fe in b.get('event', []):
                    ts, pid = int(one(fe, 'timestamp')), int(one(fe, 'pid', '0'))
                    for k, dest in (('sched_switch', self.switches), ('sched_waking', self.wakings)):
                        for x in fe.get(k, []):
                            dest.append((ts, cpu, pid, {kk: v[0] for kk, v in x.items()}))
            for te in p.get('track_event', []):
                if one(p, 'trusted_packet_sequence_id') != '1' or one(p, 'sequence_flags') != '2':
                    fail('track event outside sequence 1 or without SEQ_NEEDS_INCREMENTAL_STATE')
                ts = int(one(p, 'timestamp'))
                t = one(te, 'type')
                tr = one(te, 'track_uuid')
                if tr not in self.tracks:
                    fail('track event on undescribed track %s' % tr)
                nm = names.get(one(te, 'name_iid')) if 'name_iid' in te else None
                cat = cats.get(one(te, 'category_iids')) if 'category_iids' in te else None
                if t in ('TYPE_SLICE_BEGIN', 'TYPE_INSTANT') and nm is None:
                    fail('name iid not interned before use')
                ann = {}
                for da in te.get('debug_annotations', []):
                    k = dnames.get(one(da, 'name_iid'))
                    if k is None:
                        fail('annotation name iid not interned')
                    if k in ann:  # a consumer keying them by name would see one (until 3 Dec 2026: lost instants' count)
                        fail('annotation %r twice on one track event (%s at %s)' % (k, t, ts))
                    for vk in ('uint_value', 'int_value', 'string_value'):
                        if vk in da:
                            ann[k] = one(da, vk) if vk == 'string_value' else int(one(da, vk))
                    if 'string_value_iid' in da:  # an interned string value (since 7 Dec 2026)
                        if one(da, 'string_value_iid') not in svals:
                            fail('annotation string value iid not interned before use')
                        ann[k] = svals[one(da, 'string_value_iid')]
                        self.interned_values += 1
                # counter values carried by a track event of any type (extra_counter_track_uuids
                # [N] takes extra_counter_values[N], at the packet's time): since 7 Dec 2026 a
                # counter that the event changed
                xu, xv = te.get('extra_counter_track_uuids', []), te.get('extra_counter_values', [])
                if len(xv) > len(xu):
                    fail('%d extra counter values for %d track uuids' % (len(xv), len(xu)))
                # what trace_processor reads of them (perfetto_pkt.h): at most 8 (a ninth drops the
                # event), none on a TYPE_COUNTER event (older versions skip them there), none after
                # a 0 (its sorter keeps the values up to the first 0)
                if xv and (len(xv) > 8 or t == 'TYPE_COUNTER' or '0' in xv[:-1]):
                    fail('extra counter values trace_processor would not read whole: %r on %s at %s' % (xv, t, ts))
                for u, v in zip(xu, xv):
                    if u not in self.tracks or 'counter' not in self.tracks[u]:
                        fail('extra counter value on a track without CounterDescriptor (%s)' % u)
                    self.counters.setdefault(u, []).append((ts, int(v)))
                    self.extra_counters += 1
                if t == 'TYPE_SLICE_BEGIN':
                    self.slices.append((tr, ts, nm, cat, ann))
                    stacks.setdefault(tr, []).append((ts, nm, cat))
                elif t == 'TYPE_SLICE_END':
                    if not stacks.get(tr):
                        fail('slice end without begin on track %s' % tr)
                    t0, bn, bc = stacks[tr].pop()
                    if ts < t0:
                        fail('slice %r on track %s ends at %d before it begins at %d' % (bn, tr, ts, t0))
                    self.ends.append((tr, ts, ann))
                    self.closed.append((tr, t0, ts, bn, bc))
                elif t == 'TYPE_COUNTER':
                    if 'counter' not in self.tracks[tr]:
                        fail('counter event on a track without CounterDescriptor')
                    v = one(te, 'counter_value')
                    v = int(v) if v is not None else float(one(te, 'double_counter_value'))
                    self.counters.setdefault(tr, []).append((ts, v))
                elif t == 'TYPE_INSTANT' and cat in ('svc', 'func'):
                    # a service recorded as one instant: its zero-length slice, one packet since
                    # 7 Dec 2026 (trace_processor makes every instant a `slice` row of dur 0)
                    self.slices.append((tr, ts, nm, cat, ann))
                    self.closed.append((tr, ts, ts, nm, cat))
                    self.one_packet.append((tr, ts, nm, cat, ann))
                elif t == 'TYPE_INSTANT':
                    self.instants.append((tr, ts, nm, cat, ann, [int(x) for x in te.get('flow_ids', [])],
                                          [int(x) for x in te.get('terminating_flow_ids', [])]))
        open_left = {k: v for k, v in stacks.items() if v}
        if open_left:
            fail('unclosed slices at the end: %r' % open_left)

    def track_name(self, uuid):
        td = self.tracks.get(uuid, {})
        if 'thread' in td:
            return one(one(td, 'thread'), 'thread_name')
        return one(td, 'name')

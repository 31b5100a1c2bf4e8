"""Oracle test of the CTF exporter (LTTng layout, src/host/exporters/ctf.h). For one sample of
every format (every readable file under tests/data, the μT-Kernel scenario trace the kernel test
writes, and synthetic traces with losses and hostile text), convert to CTF and check:
- babeltrace2 reads it with nothing on stderr (sink.text.details); the pretty sink's stderr holds
  only its "Tracer discarded N events" reports;
- every event of the dump comes back (details sink) with its name, its kind and format id (the
  class's EMF URI) and its raw args (rebuilt with the URI's `args=` list);
- every event, as babeltrace2 prints it (name, cpu_id, every payload field), equals the line
  computed from `evtrace dump --json` of the same trace, with the evtrace_ctx_name /
  evtrace_obj_name events where a context or object name first appears; same order within each
  CPU stream, same global order where the source is in time order;
- each event's clock value (babeltrace2 --clock-cycles) is the dump's t_ns (ticks when the clock
  is unknown), never going back within a stream;
- per-CPU streams: file stream_N holds whole packets with magic, the metadata's UUID,
  stream_instance_id = cpu_id = N, packet_seq_num 0, 1, 2..., content_size = packet_size;
- the metadata has trace.uuid, env.trace_name (the input's file name) and the clock unit;
- discarded events: babeltrace2's discarded-event messages per stream add up to the lost counts
  of the events on that CPU, and in total to the trace's lost count;
- raw args that repeat a decoded field are not written (aliases, ctf.h), modelled here;
- short strings of the reader's fields are label indexes: babeltrace2 prints the label, which is
  the metadata's label of that index and the dump's string;
- scheduling records of the one timeline (ctf_sched.c), checked against perfetto_sched_model.py
  (an independent re-implementation of timeline.h's rules from `dump --json`): sched_switch the
  model's switches, in order per CPU, same count, prev_state the model's Linux value (0/1/4/16),
  prev_tid the previous switch's next_tid, idle tid 0 "swapper", one tid per context, comm a
  name the dump gives that context (ctx_name, or the target_name of a thread_run/thread_stop
  naming it) or its "ctx 0x<id>" label; sched_waking the model's wake-ups; irq_handler_entry one
  per isr_enter (irq its isr_id/irq/intno/dintno/vector/isr field, else -1) and irq_handler_exit
  one per matched isr_exit (rule: per CPU a depth counter, an isr_exit at depth 0 and ISRs open at
  a loss or at the end get none) with the irq of the innermost open entry; each stream's clock
  values (records and events) never go back and env.sched_clamped is 0; no reader event class
  uses those names (else the pretty output could not tell them apart);
- size: at most 32 bytes per event (event headers, payloads and name events, per event of the
  dump; the 84-byte packet headers, one per 32 KiB, excluded: they dominate the tiny samples) on
  the synthetic, ThreadX and μT-Kernel traces (the common records). The scheduling records'
  bytes (computed from their fields: RECORD_FIXED + each string's bytes + 1, and the 4-byte
  compact or 13-byte extended header) are printed as B/event with and without them; with them
  the bound does not hold on every trace (docs/exports.md gives the numbers);
- determinism: converting again gives byte-identical files; another input another UUID; an
  input read from a pipe gets a random UUID.
Fails if babeltrace2 is missing.

usage: ctf_check.py EVTRACE SAMPLES_DIR HOST_DATA_DIR [UTK_SCENARIO_TEST]"""
import glob
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_common import fail, run, readable_samples  # noqa: E402
from perfetto_sched_model import model as sched_model, LINUX_STATE, NOCTX, event_time, caps_of  # noqa: E402

PRETTY = re.compile(r'^\[(\d+)\] \(\+[^)]*\) (.*)$')
DISCARD_ERR = re.compile(r'^WARNING: Tracer discarded (\d+) events between \[[^\]]*\] and \[[^\]]*\] in trace '
                         r'"[^"]*" \(UUID: [0-9a-f-]{36}\) within stream "[^"]*" \(stream class ID: 0, stream ID: '
                         r'(\d+)\)\.$')
IDENT_MAX = 96
BOUND = 32.0
LABEL_LEN = 64
ENUM = re.compile(r'\( "([^"\\]*)" : container = (\d+) \)')
SCHED = ('sched_switch', 'sched_waking', 'irq_handler_entry', 'irq_handler_exit')
IRQ_KEYS = ('isr_id', 'irq', 'intno', 'dintno', 'vector', 'isr')
RECORD_FIXED = {'sched_switch': 4 + 4 + 8 + 4 + 4, 'sched_waking': 12, 'irq_handler_entry': 4,
                'irq_handler_exit': 8}  # integer bytes of each record (CTF_BUILTIN_TABLE)
PAYLOAD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|-?\d+)')


def bt_str(s):
    """A string as babeltrace2's pretty sink prints it: the UTF-8 bytes of the `dump --json` text
    (the reader registry already replaced invalid bytes with U+FFFD), quote, backslash and control
    bytes escaped, other bytes raw."""
    out = bytearray(b'"')
    for b in s.encode('utf-8'):
        if b in (0x22, 0x5c):
            out += b'\\' + bytes([b])
        elif b == 10:
            out += b'\\n'
        elif b == 9:
            out += b'\\t'
        elif b == 13:
            out += b'\\r'
        elif b < 0x20:
            out += b'\\x%02x' % b
        else:
            out.append(b)
    out += b'"'
    return out.decode('utf-8', 'replace')


def ident(key, taken, is_bytes=False):
    """ctf.c's ident_: [A-Za-z0-9_] kept, others '_', cut, made unique among `taken` (a list of
    (ident, is_bytes)); a bytes field also claims <ident>_len."""
    base = re.sub(r'[^A-Za-z0-9_]', '_', key)[:IDENT_MAX - 9]
    dup = 1
    while True:
        out = base if dup == 1 else '%s_%d' % (base, dup)
        if not any(o == out or (b and o + '_len' == out) or (is_bytes and o == out + '_len') for o, b in taken):
            return out
        dup += 1


def dump_pairs(evtrace, path):
    """`dump --json` events with "fields" kept as a list of (key, value) pairs."""
    r = run([evtrace, 'dump', '--json', path])
    if r.returncode not in (0, 1):
        fail('dump failed on %s: %s' % (path, r.stderr.decode()))
    evs = []
    for l in r.stdout.decode('utf-8').splitlines():
        if l.strip():
            e = json.loads(l, object_pairs_hook=lambda p: p)
            d = dict(e)
            d['fields'] = d.get('fields', [])
            evs.append(d)
    return evs


class Model:
    """The expected CTF content: per event the (cpu, clock, line) babeltrace2 prints."""

    def __init__(self):
        self.ctx_index = {}
        self.ctx_name = {}
        self.obj_name = {}
        self.last = {}
        self.out = []
        self.has_label = False
        self.aliases = {}

    def emit(self, cpu, clock, name, payload):
        clock = max(clock, self.last.get(cpu, 0))
        self.last[cpu] = clock
        self.out.append((cpu, clock, '%s: { cpu_id = %d }, { %s }' % (name, cpu, ', '.join(payload))))

    def event(self, e):
        cpu = e.get('cpu', 0)
        clock = e['t_ns'] if 't_ns' in e else e['ts']
        fields = list(e['fields'])
        target = tname = None
        if fields and fields[0][0] == 'target':
            target = fields.pop(0)[1]
            if fields and fields[0][0] == 'target_name':
                tname = fields.pop(0)[1]
        p, taken = [], []
        if e['ctx'] is not None:
            ctx = e['ctx']
            new = ctx not in self.ctx_index
            if new:
                self.ctx_index[ctx] = len(self.ctx_index)
            name = e.get('ctx_name')
            if new or (name is not None and name != self.ctx_name.get(ctx)):
                if name is not None:
                    self.ctx_name[ctx] = name
                # the context class (evt_ctx_class) is not in the dump: '@', filled in by check()
                self.emit(cpu, clock, 'evtrace_ctx_name',
                          ['ctx = %d' % self.ctx_index[ctx], 'ctx_id = %d' % ctx, 'ctx_class = @',
                           'name = %s' % bt_str(name or '')])
            p.append('ctx = %d' % self.ctx_index[ctx])
            taken.append(('ctx', False))
        if tname is not None and self.obj_name.get(target) != tname:
            self.obj_name[target] = tname
            self.emit(cpu, clock, 'evtrace_obj_name', ['target = %d' % target, 'name = %s' % bt_str(tname)])
        values = []  # (ident, value) of the integer value fields, in field order
        for k in ('prio', 'seq', 'count'):
            if k in e:
                p.append('%s = %d' % (k, e[k]))
                taken.append((k, False))
                values.append((k, e[k]))
        if target is not None:
            p.append('target = %d' % target)
            taken.append(('target', False))
            values.append(('target', target))
        args = e['args']
        taken += [('arg%d' % i, False) for i in range(len(args))]
        fp = []
        for k, v in fields:
            n = ident(k, taken)
            taken.append((n, False))
            self.has_label = self.has_label or (isinstance(v, str) and labelled(v))
            fp.append('%s = %s' % (n, bt_str(v) if isinstance(v, str) else str(v)))
            if not isinstance(v, str):
                values.append((n, v % 2 ** 64))
        # raw args equal to a value field are aliases, not written (ctf.h): the layout's first
        # event picks them, a later value that differs makes the arg written from then on
        layout = (e['name'], e['kind'], e['id'], tuple(x for x, _ in taken),
                  tuple(type(v).__name__ for _, v in fields), 'data' in e, 'text' in e)
        vals = dict(values)
        if layout not in self.aliases:
            self.aliases[layout] = [next((n for n, v in values if v == a), None) for a in args]
        al = self.aliases[layout]
        for i, a in enumerate(args):
            if al[i] is not None and vals[al[i]] != a:
                al[i] = None
            if al[i] is None:
                p.append('arg%d = %d' % (i, a))
        p += fp
        if 'data' in e:
            b = bytes.fromhex(e['data'])
            if 'text' in e and 0 not in b:
                n = ident('text', taken)
                p.append('%s = %s' % (n, bt_str(e['text'])))
            else:
                n = ident('data', taken, True)
                p.append('%s_len = %d' % (n, len(b)))
                p.append('%s = [ %s ]' % (n, ', '.join('[%d] = %d' % (i, x) for i, x in enumerate(b))))
        self.emit(cpu, clock, e['name'], p)


def parse_meta(out):
    with open(os.path.join(out, 'metadata'), encoding='utf-8') as f:
        meta = f.read()
    m = re.search(r'trace \{[^}]*?uuid = "([0-9a-f-]{36})";', meta)
    if not m:
        fail('%s: no trace.uuid in the metadata' % out)
    tn = re.search(r'\ttrace_name = "([^"]*)";', meta)
    if not tn:
        fail('%s: no env.trace_name in the metadata' % out)
    if 'uint32_t cpu_id;' not in meta or 'uint8_t uuid[16];' not in meta:
        fail('%s: packet context without cpu_id or packet header without uuid' % out)
    labels = []
    lm = re.search(r'typealias enum : uint16_t \{\n(.*?)\n\} := evtrace_label16_t;', meta, re.S)
    if lm:
        for i, l in enumerate(lm.group(1).split('\n')):
            x = re.match(r'^\t"([^"\\]*)" = (\d+),?$', l)
            if not x or int(x.group(2)) != i:
                fail('%s: label line %r' % (out, l))
            labels.append(x.group(1))
    return meta, m.group(1), tn.group(1), labels


def labelled(v):
    """A string field value ctf.c writes as a label index (ctf.h: CTF_LABEL_*)."""
    b = v.encode('utf-8')
    return 0 < len(b) <= LABEL_LEN and not any(c < 0x20 or c in (0x22, 0x5c, 0x7f) for c in b)


def unlabel(line, labels, out):
    """A babeltrace2 line with each enumeration `( "L" : container = N )` replaced by the string
    "L", after checking that label N of the metadata is L."""
    def sub(m):
        n = int(m.group(2))
        if n >= len(labels) or labels[n] != m.group(1):
            fail('%s: enumeration value %d printed as %r, metadata label %r' % (out, n, m.group(1), labels[n:n + 1]))
        return '"%s"' % m.group(1)
    return ENUM.sub(sub, line)


def check_streams(out, uuid):
    """Packets of every stream_N: magic, UUID, cpu N, sequence numbers, sizes. Returns
    {cpu: (bytes, packets)}."""
    ub = bytes.fromhex(uuid.replace('-', ''))
    sizes = {}
    for p in sorted(glob.glob(os.path.join(out, 'stream_*'))):
        cpu = int(os.path.basename(p)[7:])
        with open(p, 'rb') as f:
            data = f.read()
        off, seq, disc = 0, 0, 0
        while off < len(data):
            if len(data) - off < 84:
                fail('%s: partial packet header at %d' % (p, off))
            magic, u, sid, inst, tb, te, content, size, pseq, d, cid = struct.unpack_from('<I16sIQQQQQQQI', data, off)
            if magic != 0xC1FC1FC1 or u != ub or sid != 0 or inst != cpu or cid != cpu:
                fail('%s: packet at %d: magic %x uuid %s stream %d instance %d cpu_id %d' % (p, off, magic, u.hex(), sid, inst, cid))
            if pseq != seq or content != size or size % 8 or size // 8 < 84 or tb > te or d < disc:
                fail('%s: packet at %d: seq %d (want %d) content %d size %d ts %d..%d discarded %d' %
                     (p, off, pseq, seq, content, size, tb, te, d))
            seq, disc, off = seq + 1, d, off + size // 8
        sizes[cpu] = (len(data), seq)
    if not sizes:
        fail('%s: no stream files' % out)
    return sizes


def check_details(path, text, evs):
    """From babeltrace2's details sink: each class's EMF URI gives the kind, the format's id and
    where each raw arg is; every event of the dump, in order per CPU stream, must come back with
    its name, kind, id and all its args rebuilt from the payload."""
    emf, per = {}, {}
    sid = cur = None
    for l in text.splitlines():
        m = re.match(r'^ +Event class `.*` \(ID (\d+)\):$', l)
        if m:
            cur = int(m.group(1))
            continue
        m = re.match(r'^ +EMF URI: (.*)$', l)
        if m and cur is not None:
            emf[cur] = m.group(1)
            continue
        m = re.match(r'^\{Trace \d+, Stream class ID 0, Stream ID (\d+)\}$', l)
        if m:
            sid = int(m.group(1))
            continue
        m = re.match(r'^Event `(.*)` \(Class ID (\d+)\):$', l)
        if m:
            ev = (m.group(1), int(m.group(2)), {})
            per.setdefault(sid, []).append(ev)
            continue
        m = re.match(r'^    ([A-Za-z0-9_]+): (-?[0-9,]+)$', l)
        if m and per.get(sid):
            per[sid][-1][2][m.group(1)] = int(m.group(2).replace(',', ''))
    want = {}
    for e in evs:
        want.setdefault(e.get('cpu', 0), []).append(e)
    for cpu, wl in want.items():
        gl = [g for g in per.get(cpu, []) if emf.get(g[1]) != 'evtrace:builtin']
        if len(gl) != len(wl):
            fail('%s: details sink: %d events on cpu %d, dump %d' % (path, len(gl), cpu, len(wl)))
        for (name, cid, pay), e in zip(gl, wl):
            m = re.match(r'^evtrace:kind=([a-z_]+);id=(\d+)(?:;args=([A-Za-z0-9_,]+))?$', emf.get(cid, ''))
            if not m or name != e['name'] or m.group(1) != e['kind'] or int(m.group(2)) != e['id']:
                fail('%s: class %d (%r, EMF %r) for dump event %r' % (path, cid, name, emf.get(cid), e))
            names = m.group(3).split(',') if m.group(3) else []
            args = [pay.get(n, 'missing') for n in names]
            args = [a % 2 ** 64 if isinstance(a, int) else a for a in args]
            if args != e['args']:
                fail('%s: args rebuilt from class %d (%s): %r, dump %r' % (path, cid, emf[cid], args, e['args']))


def s32(v):
    """An integer as ctf_sched.c writes it into an int32 field."""
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def unbt(q):
    """The bytes of a string babeltrace2 printed (bt_str's inverse)."""
    b, i, body = bytearray(), 0, q[1:-1].encode('utf-8')
    while i < len(body):
        if body[i] == 0x5c:
            c = body[i + 1]
            if c == ord('x'):
                b.append(int(body[i + 2:i + 4], 16))
                i += 4
                continue
            b.append({ord('n'): 10, ord('t'): 9, ord('r'): 13}.get(c, c))
            i += 2
            continue
        b.append(body[i])
        i += 1
    return bytes(b)


def record(line):
    """(name, {field: int or the quoted string as printed}) of a scheduling record line."""
    name, _, rest = line.partition(': ')
    pay = rest.split('}, { ', 1)[1] if '}, { ' in rest else ''
    return name, {k: (int(v) if v[0] != '"' else v) for k, v in PAYLOAD.findall(pay)}


def isr_model(evs):
    """Per CPU the irq_handler_entry (t, irq, name) and irq_handler_exit (t, irq) records the
    rule of ctf_sched.c gives: an entry per isr_enter (irq: the meaning's irq, else its first
    IRQ_KEYS field in that key order, else -1; name: irq_name, else "<event> #<irq>", else the event's name); an exit per
    isr_exit that closes an open entry (depth counter per CPU; a loss closes every open one
    without an exit), with the innermost open entry's irq. Times clamped per CPU as the streams."""
    ent, ext, stack, last = {}, {}, {}, {}
    for e in evs:
        cpu = e.get('cpu', 0)
        t = max(event_time(e), last.get(cpu, 0))
        last[cpu] = t
        f = dict(e['fields'])
        if e['kind'] == 'lost':
            stack = {}
        elif e['kind'] == 'isr_enter':
            m = e.get('meaning', {})
            m = dict(m) if isinstance(m, list) else m  # dump read as key/value pairs
            irq = m.get('irq') if isinstance(m, dict) and isinstance(m.get('irq'), int) else None  # EVT_M_IRQ first
            if irq is None:
                irq = next((f[k] for k in IRQ_KEYS if isinstance(f.get(k), int) and not isinstance(f.get(k), bool)), None)
            if isinstance(m, dict) and isinstance(m.get('label'), str):  # the timeline's rule: label first
                nm = m['label']
            elif isinstance(f.get('irq_name'), str):
                nm = f['irq_name']
            else:
                nm = e['name'] if irq is None else '%s #%d' % (e['name'], irq % 2 ** 64)
            v = -1 if irq is None else s32(irq)
            ent.setdefault(cpu, []).append((t, v, bt_str(nm)))
            stack.setdefault(cpu, []).append(v)
        elif e['kind'] == 'isr_exit' and stack.get(cpu):
            ext.setdefault(cpu, []).append((t, stack[cpu].pop()))
    return ent, ext


def check_sched(path, got, evs, classes, clamped_env, class_ids, caps=None):
    """The timeline's scheduling records (got: (cpu, clock, line) in babeltrace2's order, every
    line of the trace) against perfetto_sched_model.py and isr_model(). class_ids: class name ->
    id of the records' classes. Returns the counts and 'bytes', the records' bytes."""
    dicts = [dict(e, fields=dict(e['fields'])) for e in evs]
    m = sched_model(dicts, classes, caps)
    names = {}
    for e in dicts:
        f = e['fields']
        if e.get('ctx') is not None and e.get('ctx_name'):
            names.setdefault(e['ctx'], set()).add(bt_str(e['ctx_name']))
        if e['kind'] in ('thread_run', 'thread_stop') and isinstance(f.get('target'), int) and \
                isinstance(f.get('target_name'), str) and f['target_name']:
            names.setdefault(f['target'], set()).add(bt_str(f['target_name']))
    tid_key, key_tid = {0: None}, {None: 0}

    def same(comm, tid, key, what):
        """comm/tid of a record against the model's context key (None: idle)."""
        if key is None:
            ok = comm == '"swapper"' and tid == 0
        elif key == NOCTX:
            ok = comm.startswith('"(no context: ') and tid > 0
        else:
            ok = tid > 0 and (comm in names.get(key, ()) or comm == '"ctx 0x%x"' % key)
        if not ok or tid_key.setdefault(tid, key) != key or key_tid.setdefault(key, tid) != tid:
            fail('%s: %s: comm %s tid %d for context %r (names %r, tid %r was %r)' %
                 (path, what, comm, tid, key, sorted(names.get(key, ())), tid, tid_key.get(tid)))

    recs = {}   # cpu -> [(clock, previous clock in the stream, name, fields)]
    prev = {}
    nbytes = 0  # the records' bytes
    for cpu, clock, line in got:
        if clock < prev.get(cpu, 0):
            fail('%s: clock goes back in stream %d: %d after %d (%s)' % (path, cpu, clock, prev[cpu], line[:120]))
        name = line.split(':', 1)[0]
        if name in SCHED:
            r = (clock, prev.get(cpu, 0)) + record(line)
            recs.setdefault(cpu, []).append(r)
            compact = class_ids[name] <= 30 and (cpu not in prev or clock - prev[cpu] < 1 << 27)
            nbytes += (4 if compact else 13) + RECORD_FIXED[name] + \
                sum(len(unbt(v)) + 1 for v in r[3].values() if isinstance(v, str))
        prev[cpu] = clock
    want_sw, want_wk = {}, {}
    for t, cpu, p, n, ps in m.switches:
        want_sw.setdefault(cpu, []).append((t, p, n, LINUX_STATE[ps] if p is not None else 0))
    for t, cpu, tg, _ in m.wakings:
        want_wk.setdefault(cpu, []).append((t, tg))
    ent, ext = isr_model(evs)
    clamped = 0
    counts = dict.fromkeys(SCHED, 0)
    for cpu in sorted(set(recs) | set(want_sw) | set(want_wk) | set(ent)):
        by = {k: [r for r in recs.get(cpu, []) if r[2] == k] for k in SCHED}
        for k in SCHED:
            counts[k] += len(by[k])
        ws, ww, we, wx = want_sw.get(cpu, []), want_wk.get(cpu, []), ent.get(cpu, []), ext.get(cpu, [])
        if [len(by[k]) for k in SCHED] != [len(ws), len(ww), len(we), len(wx)]:
            fail('%s: cpu %d: %r records, model %d switches, %d wakings, %d irq entries, %d exits' %
                 (path, cpu, [(k, len(by[k])) for k in SCHED], len(ws), len(ww), len(we), len(wx)))
        running = 0
        for i, ((clock, before, _, f), (t, p, n, st)) in enumerate(zip(by['sched_switch'], ws)):
            what = 'sched_switch %d on cpu %d at %d' % (i, cpu, clock)
            if clock != max(t, before) or f['prev_state'] != st or f['prev_tid'] != running:
                fail('%s: %s: %r, model t %d prev_state %d, prev_tid %d was running' % (path, what, f, t, st, running))
            clamped += t < before
            same(f['prev_comm'], f['prev_tid'], p, what)
            same(f['next_comm'], f['next_tid'], n, what)
            running = f['next_tid']
        for (clock, before, _, f), (t, tg) in zip(by['sched_waking'], ww):
            if clock != max(t, before) or not 0 <= f['target_cpu']:
                fail('%s: sched_waking on cpu %d at %d: %r, model t %d' % (path, cpu, clock, f, t))
            clamped += t < before
            same(f['comm'], f['tid'], tg, 'sched_waking at %d' % clock)
        got_e = [(c, f['irq'], f['name']) for c, _, _, f in by['irq_handler_entry']]
        got_x = [(c, f['irq']) for c, _, _, f in by['irq_handler_exit']]
        if got_e != we or got_x != wx or any(f['ret'] != 1 for _, _, _, f in by['irq_handler_exit']):
            fail('%s: cpu %d: irq entries %r... exits %r..., model %r... %r...' % (path, cpu, got_e[:3], got_x[:3], we[:3], wx[:3]))
    if clamped != clamped_env:
        fail('%s: env.sched_clamped %d, records written after their own time %d' % (path, clamped_env, clamped))
    counts['clamped'] = clamped
    counts['bytes'] = nbytes
    return counts


def convert(evtrace, path, out):
    r = run([evtrace, 'convert', '-q', '--force', path, '-o', out, '--to', 'ctf'])
    if r.returncode not in (0, 1):
        fail('convert failed: ' + r.stderr.decode())


def check(evtrace, path, tmp, bound):
    out = os.path.join(tmp, os.path.basename(path) + '.ctf')
    convert(evtrace, path, out)
    meta, uuid, tname, labels = parse_meta(out)
    if tname != os.path.basename(path):
        fail('%s: trace_name %r' % (path, tname))
    sizes = check_streams(out, uuid)
    # babeltrace2: details sink with an empty stderr; pretty sink with the clock values
    d = run(['babeltrace2', out, '-c', 'sink.text.details'])
    if d.returncode != 0 or d.stderr:
        fail('%s: babeltrace2 (details) exit %d, stderr: %s' % (out, d.returncode, d.stderr.decode()[:2000]))
    b = run(['babeltrace2', '--clock-cycles', out])
    if b.returncode != 0:
        fail('babeltrace2 cannot read %s: %s' % (out, b.stderr.decode()[:2000]))
    err_disc = {}
    for l in b.stderr.decode('utf-8', 'replace').splitlines():
        m = DISCARD_ERR.match(l)
        if not m:
            fail('%s: babeltrace2 stderr line that is not a discarded-events report: %r' % (out, l))
        err_disc[int(m.group(2))] = err_disc.get(int(m.group(2)), 0) + int(m.group(1))
    got, every = [], []
    for l in b.stdout.decode('utf-8', 'replace').splitlines():
        m = PRETTY.match(l)
        if not m:
            fail('unexpected babeltrace2 line: ' + l)
        cpu = re.search(r': \{ cpu_id = (\d+) \}', m.group(2))
        if not cpu:
            fail('%s: no cpu_id in %r' % (out, l))
        every.append((int(cpu.group(1)), int(m.group(1)), unlabel(m.group(2), labels, out)))
    # the timeline's records (checked by check_sched) apart from the events and name events
    bclass = {}
    cur = None
    for l in d.stdout.decode('utf-8', 'replace').splitlines():
        mc = re.match(r'^ +Event class `(.*)` \(ID \d+\):$', l)
        if mc:
            cur = mc.group(1)
        me = re.match(r'^ +EMF URI: (.*)$', l)
        if me and cur is not None:
            bclass.setdefault(cur, set()).add(me.group(1))
            cur = None
    for k in SCHED:
        if bclass.get(k, {'evtrace:builtin'}) != {'evtrace:builtin'}:
            fail('%s: a reader event class is named %s (EMF %r): records and events would mix' % (path, k, bclass[k]))
    got = [g for g in every if g[2].split(':', 1)[0] not in SCHED]
    evs = dump_pairs(evtrace, path)
    st = run([evtrace, 'stats', '--json', path])
    if st.returncode not in (0, 1):
        fail('stats failed on %s: %s' % (path, st.stderr.decode()))
    ctx_classes = {c['ctx']: c['class'] for c in json.loads(st.stdout.decode())['contexts'] if c['ctx'] is not None}
    cm = re.search(r'\tsched_clamped = (\d+);', meta)
    if not cm:
        fail('%s: no env.sched_clamped in the metadata' % out)
    class_ids = {n: int(i) for n, i in re.findall(r'\nevent \{\n\tname = "(\w+)";\n\tid = (\d+);', meta) if n in SCHED}
    sched = check_sched(path, every, evs, ctx_classes, int(cm.group(1)), class_ids, caps_of(evtrace, path))
    model = Model()
    for e in evs:
        model.event(e)
    check_details(path, d.stdout.decode('utf-8', 'replace'), evs)
    if model.has_label != bool(labels):
        fail('%s: short string fields in the dump but no labels in the metadata, or the reverse' % path)
    want = model.out
    # ctx_class is not in `dump --json`: take babeltrace2's value where the model has '@'
    classes = {}
    for _, _, l in got:
        m = re.match(r'evtrace_ctx_name: .*ctx = (\d+), ctx_id = \d+, ctx_class = (\d+),', l)
        if m:
            classes[int(m.group(1))] = m.group(2)
    if not set(classes.values()) <= {'0', '1', '2', '3'}:
        fail('%s: context classes %r outside evt_ctx_class' % (path, sorted(set(classes.values()))))

    def fill(line):
        m = re.match(r'evtrace_ctx_name: .*ctx = (\d+),', line)
        return line.replace('ctx_class = @', 'ctx_class = %s' % classes.get(int(m.group(1)), '?')) if m else line
    want = [(c, t, fill(l)) for c, t, l in want]
    if len(got) != len(want):
        fail('%s: babeltrace2 shows %d events, expected %d (%d in the dump + name events)' % (path, len(got), len(want), len(evs)))
    if sorted(got) != sorted(want):
        sg = set(got)
        missing = [w for w in want if w not in sg][:3]
        fail('%s: events differ; first missing: %r; babeltrace2 e.g. %r' % (path, missing, got[:3]))
    per_got, per_want = {}, {}
    for g in got:
        per_got.setdefault(g[0], []).append(g)
    for w in want:
        per_want.setdefault(w[0], []).append(w)
    if per_got != per_want:
        fail('%s: order differs within a CPU stream' % path)
    if set(per_got) != set(sizes):
        fail('%s: CPUs with events %s, stream files %s' % (path, sorted(per_got), sorted(sizes)))
    tss = [e['ts'] for e in evs]
    if tss == sorted(tss) and [g[1] for g in got] != sorted(g[1] for g in got):
        fail('%s: global time order differs' % path)
    # discarded events: per stream and in total equal to the lost counts
    lost = {}
    for e in evs:
        if e['kind'] == 'lost':
            lost[e.get('cpu', 0)] = lost.get(e.get('cpu', 0), 0) + e.get('count', 0)
    det = {}
    sid = None
    for l in d.stdout.decode('utf-8', 'replace').splitlines():
        m = re.match(r'^\{Trace \d+, Stream class ID 0, Stream ID (\d+)\}$', l)
        if m:
            sid = int(m.group(1))
        m = re.match(r'^Discarded events \((\d+) events?\)$', l)
        if m:
            det[sid] = det.get(sid, 0) + int(m.group(1))
    lost = {k: v for k, v in lost.items() if v}
    if det != lost or err_disc != lost:
        fail('%s: discarded per stream %r (details), %r (pretty), lost per cpu %r' % (path, det, err_disc, lost))
    total = sum(n for n, _ in sizes.values())
    ev_bytes = total - 84 * sum(k for _, k in sizes.values())
    per = total / len(evs) if evs else 0.0
    per_ev = ev_bytes / len(evs) if evs else 0.0
    per_own = (ev_bytes - sched['bytes']) / len(evs) if evs else 0.0
    if bound and per_own > BOUND:
        fail('%s: %.1f bytes/event without the scheduling records (bound %.0f)' % (path, per_own, BOUND))
    # determinism: same input, same bytes
    again = out + '.again'
    convert(evtrace, path, again)
    for f in sorted(os.listdir(out)):
        with open(os.path.join(out, f), 'rb') as x, open(os.path.join(again, f), 'rb') as y:
            if x.read() != y.read():
                fail('%s: %s differs between two conversions' % (path, f))
    # extended event headers: class ids over 30, clock steps of 2^27 or more within a stream
    nclass = meta.count('\nevent {')
    jumps = sum(1 for l in per_want.values() for a, b in zip(l, l[1:]) if b[1] - a[1] >= 1 << 27)
    print('%s: %d events (+%d name events, +%d sched_switch, %d sched_waking, %d/%d irq entry/exit, %d clamped), '
          'cpus %s, %d discarded, %.1f B/event (%.1f without the scheduling records, %.1f with packet headers), '
          '%d classes, %d clock steps >= 2^27, uuid %s: ok' %
          (os.path.basename(path), len(evs), len(got) - len(evs), sched['sched_switch'], sched['sched_waking'],
           sched['irq_handler_entry'], sched['irq_handler_exit'], sched['clamped'], sorted(sizes), sum(det.values()),
           per_ev, per_own, per, nclass, jumps, uuid))
    return uuid, nclass, jumps


def check_stream_input(evtrace, path, tmp):
    """A trace read from a pipe (which cannot be read twice to hash it) gets a random UUID: two
    conversions differ in it, both read cleanly, and the trace is named "evtrace"."""
    seen = set()
    for i in range(2):
        out = os.path.join(tmp, 'pipe%d.ctf' % i)
        with open(path, 'rb') as f:
            r = subprocess.run([evtrace, 'convert', '-q', '-', '-o', out, '--to', 'ctf'], stdin=f,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode not in (0, 1):
            fail('convert from a pipe failed: ' + r.stderr.decode())
        _, uuid, tname, _ = parse_meta(out)
        check_streams(out, uuid)
        d = run(['babeltrace2', out, '-c', 'sink.text.details'])
        if d.returncode != 0 or d.stderr or tname != 'evtrace':
            fail('%s: babeltrace2 exit %d, stderr %r, trace_name %r' % (out, d.returncode, d.stderr[:500], tname))
        seen.add(uuid)
    if len(seen) != 2:
        fail('two conversions from a pipe got the same UUID')
    print('%s from a pipe: random UUIDs %s: ok' % (os.path.basename(path), ', '.join(sorted(seen))))


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
    evtrace, samples, data = sys.argv[1:4]
    if run(['babeltrace2', '--version']).returncode != 0:
        fail('babeltrace2 missing (package babeltrace2)')
    with tempfile.TemporaryDirectory() as tmp:
        paths = readable_samples(evtrace, samples)
        for fmt in ('threadx_tracex', 'threadx_real', 'rkh', 'etw', 'xray'):
            if not any(os.sep + fmt + os.sep in p for p in paths):
                fail('no readable %s sample' % fmt)
        if len(sys.argv) > 4:
            paths.append(utk_trace(sys.argv[4], tmp))
        syn = [os.path.join(data, 'small.syn'), os.path.join(data, 'weird.syn')]
        bench = os.path.join(tmp, 'bench.syn')
        with open(bench, 'w') as f:  # bench_export's synthetic trace, smaller
            f.write('evtrace-synthetic 1\nevents 200000\nthreads 8\nhz 100000000\nlost_every 50000\n')
        slow = os.path.join(tmp, 'slow.syn')
        with open(slow, 'w') as f:  # 10 ms ticks: most steps are 2^27 ns or more (extended headers)
            f.write('evtrace-synthetic 1\nevents 3000\nthreads 3\nhz 100\nlost_every 1000\n')
        syn.append(slow)
        uuids, most, jumps = set(), 0, 0
        for p in paths + syn + [bench]:
            common = '.syn' in p or os.sep + 'threadx' in p or p.endswith('utk_scenario.trx')
            u, nclass, nj = check(evtrace, p, tmp, common)
            uuids.add(u)
            most, jumps = max(most, nclass), jumps + nj
        if most <= 31 or not jumps:
            fail('the extended event header went untested (most classes %d, clock steps >= 2^27: %d)' % (most, jumps))
        check_stream_input(evtrace, next(p for p in paths if p.endswith('.bin') and os.sep + 'rkh' + os.sep in p), tmp)
        if len(uuids) != len(paths) + len(syn) + 1:
            fail('two inputs got the same UUID')


if __name__ == '__main__':
    main()

"""Real .etl files read as a real tool reads them (tests/data/etw_more/README.md).

  perfview EVTRACE ETL BASELINE
      BASELINE is PerfView's own listing of ETL (TraceEvent's GeneralParsing test output): up to five
      "EVENT <ms>: <provider>/<event> PID=..; TID=..; PName=..; ProceNum=..; DataLen=..; ..." lines
      per event name, then "COUNT <provider>/<event>:<n>" for every name. Each EVENT line must be
      one of `evtrace dump --json`'s events, each used once: the same time from the first record
      (PerfView prints milliseconds to 3 decimals), CPU, payload length and, for events that carry
      their own (not the kernel's, whose PID/TID PerfView takes from the payload), process and
      thread. The events a name matched must all be of one (provider GUID, event) of ours and no
      other name's, and evtrace must count as many of it as PerfView does. Whatever evtrace
      decodes beyond PerfView's names must be listed in UNLISTED below, with why.
  lost EVTRACE ETL
      The logfile header's EventsLost (read here from its bytes) is what `info`, `stats`,
      `check` and the Chrome export report as lost, and nothing is lost twice."""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

# Events of ours that PerfView's listing has no name for, per file: (GUID, name) -> why.
UNLISTED = {
    'perfview_gcevents.etl': {
        ('68fdd900-4a3e-11d1-84f4-0000f80464e3', 'EventTrace/PartitionInfoExtension'):
            "the logfile header's extension record: TraceLog lists only the header itself",
    },
    'perfview_gcrundownevents.etl': {
        ('68fdd900-4a3e-11d1-84f4-0000f80464e3', 'EventTrace/PartitionInfoExtension'):
            "the logfile header's extension record: TraceLog lists only the header itself",
        ('a669021c-c450-4609-a035-5af59af4df18', 'Event144'):
            'CLR rundown MethodDCStopVerbose (80 records): PerfView\'s listing neither shows nor '
            'counts them',
    },
}
KERNEL = ('Windows Kernel/', 'MSNT_SystemTrace/', 'KernelTraceControl/')
EVENT_RE = re.compile(r'^EVENT ([\d,]+\.\d+): (.+?) PID=(-?\d+); TID=(-?\d+); PName=.*?; '
                      r'ProceNum=(\d+); DataLen=(\d+);')
TOL_MS = 0.00051  # PerfView rounds to 1 us


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def dump(evt, etl):
    rc, out, err = run([evt, 'dump', '--json', etl])
    if rc != 0:
        fail('dump %s: exit %d: %s' % (etl, rc, err.strip()))
    return [json.loads(line) for line in out.splitlines()]


def key(e):
    return (e['fields'].get('guid'), e['name'])


def cmd_perfview(evt, etl, baseline):
    ours = dump(evt, etl)
    if not ours or ours[0]['name'] != 'EventTrace/Header':
        fail('the first event is not the logfile header')
    t0 = ours[0]['t_ns']
    listed, counts = [], {}
    with open(baseline, encoding='utf-8-sig') as f:
        for line in f:
            if line.startswith('EVENT '):
                m = EVENT_RE.match(line)
                if not m:
                    fail('baseline line not understood: ' + line[:120])
                listed.append((float(m.group(1).replace(',', '')), m.group(2), int(m.group(3)),
                               int(m.group(4)), int(m.group(5)), int(m.group(6))))
            elif line.startswith('COUNT '):
                name, n = line[6:].rstrip('\n').rsplit(':', 1)
                counts[name] = int(n)
    if not listed or not counts:
        fail('empty baseline ' + baseline)
    used, name_keys = set(), {}
    for ms, name, pid, tid, cpu, dlen in listed:
        hit = None
        for i, e in enumerate(ours):
            if i in used or e['cpu'] != cpu or len(e.get('data', '')) // 2 != dlen:
                continue
            if abs((e['t_ns'] - t0) / 1e6 - ms) > TOL_MS:
                continue
            if not name.startswith(KERNEL) and (e['fields'].get('pid'), e['fields'].get('tid')) != (pid, tid):
                continue
            hit = i
            break
        if hit is None:
            fail('PerfView lists %s at %.3f ms (cpu %d, pid %d, tid %d, %d bytes): no such event decoded'
                 % (name, ms, cpu, pid, tid, dlen))
        used.add(hit)
        name_keys.setdefault(name, set()).add(key(ours[hit]))
    seen_by = {}
    for name, keys in name_keys.items():
        if len(keys) != 1:
            fail('PerfView name %s matched events of several kinds of ours: %s' % (name, sorted(keys)))
        k = next(iter(keys))
        if k in seen_by:
            fail('%s and %s both matched %s' % (seen_by[k], name, k))
        seen_by[k] = name
    if set(counts) != set(name_keys):
        fail('COUNT names without an EVENT line or the reverse: %s' % sorted(set(counts) ^ set(name_keys)))
    ours_count = {}
    for e in ours:
        ours_count[key(e)] = ours_count.get(key(e), 0) + 1
    for k, name in sorted(seen_by.items(), key=lambda kv: kv[1]):
        if ours_count[k] != counts[name]:
            fail('%s: PerfView counts %d, evtrace decodes %d (%s)' % (name, counts[name], ours_count[k], k))
    allowed = UNLISTED.get(os.path.basename(etl), {})
    for k, n in sorted(ours_count.items()):
        if k not in seen_by and k not in allowed:
            fail('%d events %s have no PerfView name and are not in UNLISTED' % (n, k))
    for k in allowed:
        if k not in ours_count or k in seen_by:
            fail('UNLISTED names %s, which is not (or no longer) unlisted' % (k,))
    print('ok: %s: %d listed events matched, %d names counted as PerfView counts them (%d events), '
          '%d events of %d kinds PerfView does not list' %
          (os.path.basename(etl), len(used), len(seen_by), sum(counts.values()),
           sum(ours_count[k] for k in allowed), len(allowed)))


def events_lost_from_header(etl):
    """TRACE_LOGFILE_HEADER.EventsLost: the first buffer's first record, a SYSTEM_TRACE_HEADER
    (32 bytes) after the 72-byte WMI_BUFFER_HEADER; EventsLost at 0x30 of it (BufferSize, Version,
    ProviderVersion, NumberOfProcessors, EndTime: 64 bits, TimerResolution, MaximumFileSize,
    LogFileMode, BuffersWritten, StartBuffers, PointerSize, then EventsLost)."""
    with open(etl, 'rb') as f:
        b = f.read(0x48 + 0x20 + 0x34)
    htype = b[0x48 + 2]  # the marker: Version (16 bits), HeaderType, Flags
    if htype != 0x02:  # SYSTEM64
        fail('first record is not a SYSTEM64 header (HeaderType 0x%02x)' % htype)
    return struct.unpack_from('<I', b, 0x48 + 0x20 + 0x30)[0]


def cmd_lost(evt, etl):
    want = events_lost_from_header(etl)
    if want == 0:
        fail('%s reports no lost events: pick a file that does' % etl)
    rc, out, err = run([evt, 'info', '--json', etl])
    info = json.loads(out) if rc == 0 else fail('info: exit %d: %s' % (rc, err.strip()))
    if info['lost'] != want or info['events_lost'] != want:
        fail('info: lost %s, events_lost %s; the header says %d' % (info['lost'], info['events_lost'], want))
    rc, out, err = run([evt, 'stats', '--json', etl])
    stats = json.loads(out) if rc == 0 else fail('stats: exit %d: %s' % (rc, err.strip()))
    if stats['lost']['count'] != want:
        fail('stats: lost %s; the header says %d' % (stats['lost'], want))
    rc, out, err = run([evt, 'check', etl])
    if rc != 0 or ('%d lost' % want) not in out:
        fail('check: exit %d, %r (want exit 0 and "%d lost")' % (rc, out + err, want))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'out.json')
        rc, out, err = run([evt, 'convert', etl, '-o', path, '-q'])
        if rc != 0:
            fail('convert: exit %d: %s' % (rc, err.strip()))
        with open(path) as f:
            chrome = json.load(f)
    got = sum(e['args']['count'] for e in chrome['traceEvents'] if e.get('cat') == 'lost')
    if got != want:
        fail('Chrome export: lost instants count %d; the header says %d' % (got, want))
    print('ok: %s: %d lost events (logfile header) in info, stats, check and the Chrome export'
          % (os.path.basename(etl), want))


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[1] == 'perfview':
        cmd_perfview(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == 'lost':
        cmd_lost(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)

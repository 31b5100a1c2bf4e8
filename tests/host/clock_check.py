"""Clock model oracle (issue 11, item 1): one trace of each format (ThreadX, RKH, ETW, XRay, and
synthetic traces; an RKH copy whose TCFG carries a plausible 1000 Hz) converted to every output -- dump --json, stats --json, info --json, Chrome JSON,
Perfetto (decoded with protoc against tests/host/data/perfetto_subset.proto), CTF (read back with
babeltrace2 --clock-cycles), SQLite and the HTML report -- with a known rate (the format's own or
--clock-hz), and checked in nanoseconds:
- dump's t_ns is the independent floor(ts * 1e9 / hz) where the rate is given or a plain tick
  rate (ETW: the reader's own epoch-based ns, checked against the tick deltas to within 1 ns);
- the first and last timestamps agree in every output (stats start_ns/end_ns and duration too);
- three chosen durations (first..last, first..1/3, 1/3..2/3 of the events) agree: their end
  points are present at the same ns in every output, and SQLite gives the same differences;
- every output's timestamps are the dump's event times (Chrome "ts" is exact µs with 3 decimals);
- the metadata says "ns" and where the rate came from.
Without a rate (ThreadX without --clock-hz, a synthetic trace without "hz") every output says
ticks: dump has no t_ns, info/stats/sqlite say "ticks"/"unknown", Chrome otherData time_unit
"ticks", the CTF clock description and env and the Perfetto process name say ticks, the report
header says so. Needs protoc and babeltrace2 (fails when missing).

usage: clock_check.py EVTRACE DATA_DIR PROTO_DIR"""
import decimal
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_common import fail, run, parse_textproto, one  # noqa: E402

NS = 1000000000


def cli(evtrace, args, what):
    r = run([evtrace] + args)
    if r.returncode not in (0, 1):
        fail('%s failed (%d): %s' % (what, r.returncode, r.stderr.decode()[:2000]))
    return r.stdout.decode('utf-8')


def dump_events(evtrace, path, extra):
    out = cli(evtrace, ['dump', '--json'] + extra + [path], 'dump ' + path)
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def chrome_times(evtrace, path, extra, tmp):
    out = os.path.join(tmp, 'c.json')
    cli(evtrace, ['convert', '-q', '--force'] + extra + [path, '-o', out, '--to', 'chrome'], 'chrome')
    with open(out, encoding='utf-8') as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    od = doc['otherData']
    unit = od.get('time_unit')
    times = set()
    for e in doc['traceEvents']:
        if e['ph'] == 'M':
            continue
        ts = decimal.Decimal(e['ts'])
        if unit == 'ns':
            v = ts * 1000
            if v != v.to_integral_value():
                fail('%s: chrome ts %s is not a whole ns' % (path, e['ts']))
            times.add(int(v))
        else:
            times.add(int(ts))
    return od, times


def perfetto_times(evtrace, path, extra, tmp, proto_dir):
    out = os.path.join(tmp, 'p.pftrace')
    cli(evtrace, ['convert', '-q', '--force'] + extra + [path, '-o', out, '--to', 'perfetto'], 'perfetto')
    with open(out, 'rb') as f:
        d = run(['protoc', '--proto_path=' + proto_dir, '--decode=perfetto.protos.Trace', 'perfetto_subset.proto'],
                stdin=f)
    if d.returncode != 0:
        fail('protoc cannot decode the perfetto output of %s: %s' % (path, d.stderr.decode()))
    pk = parse_textproto(d.stdout.decode()).get('packet', [])
    times = set(int(one(p, 'timestamp')) for p in pk if 'track_event' in p)
    pname = None
    for p in pk:
        for td in p.get('track_descriptor', []):
            for pr in td.get('process', []):
                pname = one(pr, 'process_name')
    return pname, times


def ctf_times(evtrace, path, extra, tmp):
    out = os.path.join(tmp, 'ctf')
    cli(evtrace, ['convert', '-q', '--force'] + extra + [path, '-o', out, '--to', 'ctf'], 'ctf')
    b = run(['babeltrace2', '--clock-cycles', out])
    if b.returncode != 0:
        fail('babeltrace2 cannot read the CTF of %s: %s' % (path, b.stderr.decode()[:2000]))
    times = set()
    for l in b.stdout.decode('utf-8', 'replace').splitlines():
        m = re.match(r'^\[(\d+)\]', l)
        if m:
            times.add(int(m.group(1)))
    with open(os.path.join(out, 'metadata'), encoding='utf-8') as f:
        meta = f.read()
    return meta, times


def sqlite_rows(evtrace, path, extra, tmp):
    out = os.path.join(tmp, 'db.sqlite')
    if os.path.exists(out):
        os.remove(out)
    cli(evtrace, ['convert', '-q'] + extra + [path, '-o', out, '--to', 'sqlite'], 'sqlite')
    db = sqlite3.connect(out)
    meta = dict(db.execute('SELECT key, value FROM meta'))
    rows = db.execute('SELECT seq, ts, t_ns FROM events ORDER BY seq').fetchall()
    db.close()
    return meta, rows


def report_header(evtrace, path, extra, tmp):
    out = os.path.join(tmp, 'r.html')
    cli(evtrace, ['report', '-q', '--force'] + extra + [path, '-o', out], 'report')
    with open(out, encoding='utf-8') as f:
        page = f.read()
    m = re.search(r'<div class="meta">(.*?)</div>', page)
    if not m:
        fail('%s: report without its header' % path)
    return m.group(1)


def check_known(evtrace, path, extra, tmp, proto_dir, want_hz, want_source, exact):
    """A trace with a known rate: every output in ns, all agreeing."""
    name = os.path.basename(path) + (' ' + ' '.join(extra) if extra else '')
    evs = dump_events(evtrace, path, extra)
    if len(evs) < 3:
        fail('%s: too few events (%d) to check durations' % (name, len(evs)))
    for e in evs:
        if 't_ns' not in e:
            fail('%s: dump event at offset %d without t_ns although the rate is known' % (name, e['offset']))
    if exact:  # t_ns is floor(ts * 1e9 / hz), computed here independently
        for e in evs:
            if e['t_ns'] != e['ts'] * NS // want_hz:
                fail('%s: t_ns %d of ts %d at %d Hz, want %d' % (name, e['t_ns'], e['ts'], want_hz,
                                                                  e['ts'] * NS // want_hz))
    else:  # the reader's own ns (ETW: since the Unix epoch): deltas must follow the tick deltas
        e0 = evs[0]
        for e in evs:
            want = (e['ts'] - e0['ts']) * NS / want_hz
            if abs((e['t_ns'] - e0['t_ns']) - want) > 1:
                fail('%s: t_ns delta %d, ticks say %.1f' % (name, e['t_ns'] - e0['t_ns'], want))
    tns = [e['t_ns'] for e in evs]
    # a record without a time of its own (meaning "untimed": RKH's TCFG) opens no time range
    tix = [i for i, e in enumerate(evs) if not e.get('meaning', {}).get('untimed')]
    timed = [evs[i] for i in tix]
    first, last = min(e['t_ns'] for e in timed), max(e['t_ns'] for e in timed)
    n = len(timed)
    a, b = timed[n // 3]['t_ns'], timed[2 * n // 3]['t_ns']
    durations = [(first, last), (timed[0]['t_ns'], a), (a, b)]
    ends = set(x for d in durations for x in d)
    dump_set = set(e['t_ns'] for e in timed)
    untimed_t = set(tns) - dump_set  # an output that shows every record shows these too

    inf = json.loads(cli(evtrace, ['info', '--json'] + extra + [path], 'info'))
    if inf.get('clock_hz') != want_hz or inf.get('clock_source') != want_source or inf.get('time_unit') != 'ns':
        fail('%s: info clock_hz/clock_source/time_unit %r/%r/%r, want %d/%s/ns' %
             (name, inf.get('clock_hz'), inf.get('clock_source'), inf.get('time_unit'), want_hz, want_source))

    st = json.loads(cli(evtrace, ['stats', '--json'] + extra + [path], 'stats'))
    if st.get('time_unit') != 'ns' or st.get('clock_source') != want_source or st.get('clock_hz') != want_hz:
        fail('%s: stats time_unit/clock_source/clock_hz %r/%r/%r' %
             (name, st.get('time_unit'), st.get('clock_source'), st.get('clock_hz')))
    if (st.get('start_ns'), st.get('end_ns'), st.get('duration')) != (first, last, last - first):
        fail('%s: stats start_ns/end_ns/duration %r/%r/%r, dump says %d/%d/%d' %
             (name, st.get('start_ns'), st.get('end_ns'), st.get('duration'), first, last, last - first))

    od, ctimes = chrome_times(evtrace, path, extra, tmp)
    if od.get('time_unit') != 'ns' or od.get('clock_hz') != want_hz or od.get('clock_source') != want_source:
        fail('%s: chrome otherData %r' % (name, od))
    pname, ptimes = perfetto_times(evtrace, path, extra, tmp, proto_dir)
    if pname is None or 'ticks' in pname:
        fail('%s: perfetto process name %r' % (name, pname))
    cmeta, xtimes = ctf_times(evtrace, path, extra, tmp)
    if 'time_unit = "ns"' not in cmeta or 'freq = 1000000000;' not in cmeta or 'description = "ns' not in cmeta:
        fail('%s: CTF metadata does not declare a ns clock' % name)
    smeta, rows = sqlite_rows(evtrace, path, extra, tmp)
    if smeta.get('time_unit') != 'ns' or smeta.get('clock_source') != want_source or smeta.get('clock_hz') != want_hz:
        fail('%s: sqlite meta %r' % (name, smeta))
    if [r[2] for r in rows] != tns:
        fail('%s: sqlite events.t_ns differ from dump t_ns' % name)

    for what, times, exact_set in (('chrome', ctimes, True), ('perfetto', ptimes, True), ('ctf', xtimes, False)):
        if not times:
            fail('%s: no timestamps in the %s output' % (name, what))
        times = times - untimed_t
        if min(times) != first or max(times) != last:
            fail('%s: %s first/last %d/%d, dump %d/%d' % (name, what, min(times), max(times), first, last))
        if not ends <= times:
            fail('%s: %s lacks the end points %s of the chosen durations' % (name, what, sorted(ends - times)))
        # every timestamp is an event time; Chrome and Perfetto show every event's time
        # (CTF clamps a per-stream step back to the previous value, still an event time)
        if not times <= dump_set or (exact_set and times != dump_set):
            fail('%s: %s timestamps are not the events\' t_ns (%d extra, %d missing)' %
                 (name, what, len(times - dump_set), len(dump_set - times)))
    idx = {e_i: r for e_i, r in enumerate(rows)}
    for (x, y), (i, j) in zip(durations[1:], ((0, n // 3), (n // 3, 2 * n // 3))):
        i, j = tix[i], tix[j]
        if idx[j][2] - idx[i][2] != y - x:
            fail('%s: sqlite duration %d, dump %d' % (name, idx[j][2] - idx[i][2], y - x))
    hdr = report_header(evtrace, path, extra, tmp)
    if 'clock known (%d Hz, from %s)' % (want_hz, want_source) not in hdr:
        fail('%s: report header %r' % (name, hdr))
    print('ok %-40s %s Hz (%s): first %d last %d ns; durations %s ns agree in dump, stats, chrome, perfetto, '
          'ctf, sqlite' % (name, want_hz, want_source, first, last, [y - x for x, y in durations]))


def check_unknown(evtrace, path, tmp, proto_dir):
    """No rate: every output says ticks."""
    name = os.path.basename(path)
    evs = dump_events(evtrace, path, [])
    if any('t_ns' in e for e in evs):
        fail('%s: t_ns without a known clock' % name)
    ticks = set(e['ts'] for e in evs)
    inf = json.loads(cli(evtrace, ['info', '--json', path], 'info'))
    if inf.get('clock_hz') is not None or inf.get('clock_source') != 'unknown' or inf.get('time_unit') != 'ticks':
        fail('%s: info says %r/%r/%r' % (name, inf.get('clock_hz'), inf.get('clock_source'), inf.get('time_unit')))
    st = json.loads(cli(evtrace, ['stats', '--json', path], 'stats'))
    if st.get('time_unit') != 'ticks' or st.get('clock_source') != 'unknown' or st.get('start_ns') is not None:
        fail('%s: stats says %r/%r/%r' % (name, st.get('time_unit'), st.get('clock_source'), st.get('start_ns')))
    if st.get('duration') != max(ticks) - min(ticks):
        fail('%s: stats duration %r ticks, dump %d' % (name, st.get('duration'), max(ticks) - min(ticks)))
    od, ctimes = chrome_times(evtrace, path, [], tmp)
    if od.get('time_unit') != 'ticks' or od.get('clock_source') != 'unknown' or 'tick' not in od.get('time_note', ''):
        fail('%s: chrome otherData %r' % (name, od))
    if ctimes != ticks:
        fail('%s: chrome ts are not the ticks' % name)
    pname, ptimes = perfetto_times(evtrace, path, [], tmp, proto_dir)
    if pname is None or 'ticks' not in pname or ptimes != ticks:
        fail('%s: perfetto process name %r / timestamps not the ticks' % (name, pname))
    cmeta, xtimes = ctf_times(evtrace, path, [], tmp)
    if 'time_unit = "ticks"' not in cmeta or 'description = "ticks' not in cmeta or not xtimes <= ticks:
        fail('%s: CTF does not say ticks' % name)
    smeta, rows = sqlite_rows(evtrace, path, [], tmp)
    if smeta.get('time_unit') != 'ticks' or smeta.get('clock_source') != 'unknown' or any(r[2] is not None for r in rows):
        fail('%s: sqlite meta %r or t_ns set' % (name, smeta))
    hdr = report_header(evtrace, path, [], tmp)
    if 'unknown: times in ticks' not in hdr:
        fail('%s: report header %r' % (name, hdr))
    print('ok %-40s no rate: every output says ticks' % name)


def main():
    if len(sys.argv) != 4:
        fail(__doc__)
    evtrace, data, proto_dir = sys.argv[1:]
    for tool in ('protoc', 'babeltrace2'):
        if not shutil.which(tool):
            fail('%s not found (needed to read the outputs back)' % tool)
    with tempfile.TemporaryDirectory() as tmp:
        syn = os.path.join(tmp, 'clock.syn')
        with open(syn, 'w') as f:  # 100 MHz: 1 tick = 10 ns
            f.write('evtrace-synthetic 1\nevents 3000\nthreads 3\nhz 100000000\nlost_every 1000\n')
        syn0 = os.path.join(tmp, 'noclock.syn')
        with open(syn0, 'w') as f:
            f.write('evtrace-synthetic 1\nevents 2000\nthreads 3\n')
        tx = os.path.join(data, 'threadx_tracex', 'demo_threadx.trx')
        rkh = os.path.join(data, 'rkh', 'blinky_stock.bin')
        # ThreadX carries no rate: --clock-hz 3 MHz (1 tick = 333.3 ns: floors show up)
        check_known(evtrace, tx, ['--clock-hz', '3000000'], tmp, proto_dir, 3000000, 'user', True)
        # RKH: the TCFG rate field is u16-truncated (1 MHz arrives as 16960): --clock-hz
        check_known(evtrace, rkh, ['--clock-hz', '1e3'], tmp, proto_dir, 1000, 'user', True)
        # RKH with a plausible TCFG rate (1000 Hz, set here in a copy of the sample's TCFG record,
        # checksum fixed): the clock comes from the first record, so every output must take it there
        rkh_cfg = os.path.join(tmp, 'blinky_1khz.bin')
        with open(rkh, 'rb') as f:
            raw = bytearray(f.read())
        if raw[1] != 0xAC or raw[13:15] != b'\x40\x42':
            fail('%s: TCFG record not where expected (offset 1, ts_hz 16960 at 13)' % rkh)
        raw[13:15] = (1000).to_bytes(2, 'little')
        raw[15] = (raw[15] - (0xE8 + 0x03) + (0x40 + 0x42)) & 0xFF  # sum of the record stays 0 mod 256
        if raw[15] in (0x7D, 0x7E):
            fail('patched TCFG checksum needs escaping')
        with open(rkh_cfg, 'wb') as f:
            f.write(raw)
        check_known(evtrace, rkh_cfg, [], tmp, proto_dir, 1000, 'format', True)
        # ETW: the timer frequency from the log header; ns since the Unix epoch
        check_known(evtrace, os.path.join(data, 'etw', 'etl-parser_lxcore_kernel.etl'), [], tmp, proto_dir,
                    10000000, 'format', False)
        # XRay: cycle_frequency from the file header (1 GHz), and overridden by --clock-hz
        xr = os.path.join(data, 'xray', 'fdr-v5-small.xray')
        check_known(evtrace, xr, [], tmp, proto_dir, 1000000000, 'format', True)
        check_known(evtrace, xr, ['--clock-hz', '2400000000'], tmp, proto_dir, 2400000000, 'user', True)
        check_known(evtrace, syn, [], tmp, proto_dir, 100000000, 'format', True)
        check_unknown(evtrace, tx, tmp, proto_dir)
        check_unknown(evtrace, syn0, tmp, proto_dir)
        # a bad --clock-hz is a usage error naming the option
        r = run([evtrace, 'stats', '--clock-hz', '0', tx])
        if r.returncode != 2 or b'--clock-hz' not in r.stderr:
            fail('--clock-hz 0: exit %d, %s' % (r.returncode, r.stderr.decode()))
    print('PASS')


if __name__ == '__main__':
    main()

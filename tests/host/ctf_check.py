"""Oracle test of the CTF exporter: for every readable sample (and a synthetic trace with lost
data), convert to CTF, read it with babeltrace2 and check, against `evtrace dump --json` of the same
trace: every event with its name and all its payload fields (ids, kind, ts, context, args, fields,
data), their order within each context stream, the global order where the source is in time
order, and the lost counts as babeltrace2's discarded-event reports."""
import os
import re
import sys
import tempfile
from export_common import fail, run, readable_samples, dump

LINE = re.compile(r'^\[[^\]]*\] \([^)]*\) (.*)$')


def bt_str(s):
    """A string as babeltrace2's pretty sink prints it. Every output carries the same valid UTF-8
    text (the reader replaces invalid bytes with U+FFFD), so the UTF-8 bytes of the `dump --json`
    string are the bytes in the CTF stream; babeltrace2 escapes quote, backslash and control bytes
    and prints the other bytes raw."""
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


def ident(k):
    return re.sub(r'[^A-Za-z0-9_]', '_', k)


def expected(e):
    """The line babeltrace2's pretty sink prints for event e (payload layout of src/host/exporters/ctf.c)."""
    p = ['id = %d' % e['id'], 'kind = %s' % bt_str(e['kind']), 'ts = %d' % e['ts']]
    if e['ctx'] is None:
        p += ['has_ctx = 0', 'ctx = 0']
    else:
        p += ['has_ctx = 1', 'ctx = %d' % e['ctx']]
    if 'ctx_name' in e:
        p.append('ctx_name = %s' % bt_str(e['ctx_name']))
    for k in ('cpu', 'prio', 'seq', 'count'):
        if k in e:
            p.append('%s = %d' % (k, e[k]))
    p.append('offset = %d' % e.get('offset', 0))
    p.append('nargs = %d' % len(e['args']))
    p.append('args = [ %s]' % ''.join('[%d] = %d%s ' % (i, a, ',' if i + 1 < len(e['args']) else '')
                                       for i, a in enumerate(e['args'])))
    if 'fields' in e:
        fs, seen = [], {}
        for k, v in e['fields'].items():
            n = ident(k)
            seen[n] = seen.get(n, 0) + 1
            if seen[n] > 1:
                n += '_%d' % seen[n]
            fs.append('%s = %s' % (n, bt_str(v) if isinstance(v, str) else str(v)))
        p.append('fields = { %s }' % ', '.join(fs))
    if 'data' in e:
        b = bytes.fromhex(e['data'])
        p.append('data_len = %d' % len(b))
        p.append('data = [ %s]' % ''.join('[%d] = %d%s ' % (i, x, ',' if i + 1 < len(b) else '')
                                           for i, x in enumerate(b)))
        if 'text' in e:
            p.append('text = %s' % bt_str(e['text'].split('\0')[0]))
    return '%s: { %s }' % (e['name'], ', '.join(p))


def ctx_of_line(line):
    m = re.search(r'has_ctx = (\d), ctx = (\d+)', line)
    return int(m.group(2)) if m and m.group(1) == '1' else None


def check(evtrace, path, tmp):
    out = os.path.join(tmp, os.path.basename(path) + '.ctf')
    r = run([evtrace, 'convert', '-q', path, '-o', out, '--to', 'ctf'])
    if r.returncode not in (0, 1):
        fail('convert failed: ' + r.stderr.decode())
    b = run(['babeltrace2', out])
    if b.returncode != 0:
        fail('babeltrace2 cannot read %s: %s' % (out, b.stderr.decode()[:2000]))
    got = []
    for l in b.stdout.decode('utf-8', 'replace').splitlines():
        m = LINE.match(l)
        if not m:
            fail('unexpected babeltrace2 line: ' + l)
        got.append(m.group(1))
    evs = dump(evtrace, path)
    want = [expected(e) for e in evs]
    if len(got) != len(want):
        fail('%s: babeltrace2 shows %d events, dump has %d' % (path, len(got), len(want)))
    if sorted(got) != sorted(want):
        missing = [w for w in want if w not in set(got)][:3]
        fail('%s: events differ; first missing: %r; babeltrace2 e.g. %r' % (path, missing, got[:2]))
    # order within each context stream
    per_got, per_want = {}, {}
    for l in got:
        per_got.setdefault(ctx_of_line(l), []).append(l)
    for e, l in zip(evs, want):
        per_want.setdefault(e['ctx'], []).append(l)
    for k in per_want:
        if per_got.get(k) != per_want[k]:
            fail('%s: order differs in context %r' % (path, k))
    # global order where the source is in time order (ties between streams may swap)
    tss = [e['ts'] for e in evs]
    if tss == sorted(tss):
        gts = [int(re.search(r'ts = (\d+)', l).group(1)) for l in got]
        if gts != tss:
            fail('%s: global time order differs' % path)
    lost = sum(e.get('count', 0) for e in evs if e['kind'] == 'lost')
    disc = sum(int(x) for x in re.findall(r'Tracer discarded (\d+) events', b.stderr.decode()))
    if disc != lost:
        fail('%s: babeltrace2 reports %d discarded, trace lost %d' % (path, disc, lost))
    print('%s: %d events, %d streams, %d discarded: ok' % (os.path.basename(path), len(got), len(per_got), disc))


def main():
    evtrace, samples, data = sys.argv[1:4]
    if run(['babeltrace2', '--version']).returncode != 0:
        fail('babeltrace2 missing (package babeltrace2)')
    with tempfile.TemporaryDirectory() as tmp:
        for p in readable_samples(evtrace, samples) + [os.path.join(data, 'small.syn'), os.path.join(data, 'weird.syn')]:
            check(evtrace, p, tmp)


if __name__ == '__main__':
    main()

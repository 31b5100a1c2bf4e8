"""Shared helpers of the exporter oracle tests (tests/host/*.cmake): find the trace samples that
evtrace can read, run evtrace, read `dump --json`, parse protobuf text format."""
import json
import os
import subprocess
import sys

SKIP_EXT = ('.json', '.txt', '.csv', '.yaml', '.tsv', '.md', '.xml')


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def run(cmd, **kw):
    """Run a command; any sanitizer report on its stderr fails the test (ASan exits with 1,
    which the callers would otherwise take for "the data has errors")."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    err = r.stderr.decode('utf-8', 'replace')
    if 'Sanitizer' in err or 'runtime error:' in err:
        fail('sanitizer report from %s:\n%s' % (' '.join(cmd), err[-4000:]))
    return r


def readable_samples(evtrace, samples_dir):
    """Every sample file some registered reader reads (formats whose reader is not yet
    registered are listed as not covered). At least one ThreadX sample must be readable."""
    out, notcov = [], []
    for root, _, files in sorted(os.walk(samples_dir)):
        for f in sorted(files):
            p = os.path.join(root, f)
            if f.endswith(SKIP_EXT) or f.startswith('LICENSE') or f == 'README.md':
                continue
            r = run([evtrace, 'info', '--json', p])
            if r.returncode in (0, 1):
                out.append(p)
            else:
                notcov.append(p)
    if not any('threadx' in p for p in out):
        fail('no readable ThreadX sample in ' + samples_dir)
    for p in notcov:
        print('note: not covered (no reader reads it yet): ' + p)
    return out


def dump(evtrace, path):
    r = run([evtrace, 'dump', '--json', path])
    if r.returncode not in (0, 1):
        fail('dump failed on %s: %s' % (path, r.stderr.decode()))
    return [json.loads(l) for l in r.stdout.decode().splitlines() if l.strip()]


def info(evtrace, path):
    r = run([evtrace, 'info', '--json', path])
    return json.loads(r.stdout.decode())


def parse_textproto(text):
    """protoc --decode output -> nested dict: key -> list of values (str or dict)."""
    root = {}
    stack = [root]
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if s == '}':
            stack.pop()
            continue
        if s.endswith('{'):
            key = s[:-1].strip()
            d = {}
            stack[-1].setdefault(key, []).append(d)
            stack.append(d)
            continue
        key, _, val = s.partition(':')
        val = val.strip()
        if val.startswith('"'):
            # C escapes (octal bytes) or raw UTF-8 -> the bytes -> the UTF-8 text they encode
            val = bytes(val[1:-1], 'utf-8').decode('unicode_escape').encode('latin-1').decode('utf-8')
        stack[-1].setdefault(key.strip(), []).append(val)
    return root


def one(d, key, default=None):
    v = d.get(key)
    return v[0] if v else default

"""The test data is the repository's own (tests/data/README.md).
  sums DATA_DIR            every file of the sample folders (and of etw_more/ and threadx_counters/,
                           added here) is listed
                           in SHA256SUMS with its hash, and every listed file exists with that hash
  refs SRC                 no test, fuzz target, bench, example or script reads the development-only
                           shared/ folder (EVT_SHARED_DIR, shared/samples, ../shared), except this
                           oracle (tests/repo/)
  origin DATA_DIR SHARED   CI-only oracle: the copied sample folders equal SHARED/samples/<folder> byte for
                           byte. SHARED is the development-only folder a user's clone never has:
                           without it the test exits 77 (CTest: skipped) and says why, unless CI=true,
                           where a missing folder is a failure (CI must never skip it silently)."""
import hashlib
import os
import re
import sys

FOLDERS = ('threadx_tracex', 'threadx_real', 'rkh', 'etw', 'xray')
# Real samples added in the repository itself (not copies of shared/samples): summed, no origin.
SUMS_ONLY = ('etw_more', 'threadx_counters')
SKIP = 77


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def files_under(root, folders=FOLDERS):
    out = set()
    for folder in folders:
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            fail('missing sample folder ' + base)
        for d, _, names in os.walk(base):
            for n in names:
                out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def cmd_sums(data):
    listed = {}
    with open(os.path.join(data, 'SHA256SUMS')) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if len(parts) != 2 or len(parts[0]) != 64:
                fail('SHA256SUMS line %d is not "<sha256>  <path>": %r' % (lineno, line))
            listed[parts[1]] = parts[0]
    present = files_under(data, FOLDERS + SUMS_ONLY)
    for p in sorted(present - set(listed)):
        fail('%s is not listed in SHA256SUMS (add it, see tests/data/README.md)' % p)
    for p, want in sorted(listed.items()):
        full = os.path.join(data, p)
        if not os.path.isfile(full):
            fail('%s is listed in SHA256SUMS but missing' % p)
        got = sha256(full)
        if got != want:
            fail('%s changed: sha256 %s, SHA256SUMS says %s' % (p, got, want))
    print('ok: %d sample files match SHA256SUMS' % len(listed))


def cmd_refs(src):
    pattern = re.compile(r'EVT_SHARED_DIR|shared/samples|\.\./shared|EVT_SAMPLES')
    hits, n = [], 0
    for top in ('tests', 'fuzz', 'bench', 'examples', 'scripts'):
        for d, dirs, names in os.walk(os.path.join(src, top)):
            rel = os.path.relpath(d, src)
            if rel == os.path.join('tests', 'data') or rel == os.path.join('tests', 'repo'):
                dirs[:] = []
                continue
            for name in names:
                if not name.endswith(('.c', '.h', '.py', '.cmake', '.sh', '.txt')):
                    continue
                n += 1
                with open(os.path.join(d, name), encoding='utf-8', errors='replace') as f:
                    for lineno, line in enumerate(f, 1):
                        if pattern.search(line):
                            hits.append('%s:%d: %s' % (os.path.join(rel, name), lineno, line.strip()))
    if hits:
        fail('the development-only shared/ folder is named outside the CI oracle (tests must read '
             'tests/data, EVT_TEST_DATA_DIR):\n  ' + '\n  '.join(hits))
    print('ok: %d files read, none names the shared/ folder' % n)


def cmd_origin(data, shared):
    samples = os.path.join(shared, 'samples')
    ci = os.environ.get('CI', '') not in ('', '0', 'false')
    if not os.path.isdir(samples):
        if ci:
            fail('CI is set but %s is missing: the CI checkout must have shared/ beside it '
                 'for this oracle check' % samples)
        print('SKIP: %s is not here (it is a development-only folder, never part of a clone); '
              'this oracle check runs in CI only' % samples)
        sys.exit(SKIP)
    want = files_under(samples)
    have = files_under(data)
    for p in sorted(want - have):
        fail('%s is in %s but not copied to %s' % (p, samples, data))
    for p in sorted(have - want):
        fail('%s is in %s but not in its origin %s' % (p, data, samples))
    for p in sorted(want):
        if sha256(os.path.join(samples, p)) != sha256(os.path.join(data, p)):
            fail('%s differs from its origin in %s' % (p, samples))
    print('ok: %d sample files equal their origin in %s' % (len(want), samples))


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'sums':
        cmd_sums(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == 'refs':
        cmd_refs(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == 'origin':
        cmd_origin(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)

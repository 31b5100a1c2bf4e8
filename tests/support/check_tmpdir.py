#!/usr/bin/env python3
"""The shared test helpers' temporary directory (tests/support/evt_test.c evt_test_tmpdir) goes
when the test exits, unless EVT_TEST_KEEP_TMP is set: a test binary that writes a file there (the
uT-Kernel scenario writes utk_scenario.trx) is run under a fresh TMPDIR, which must be empty after
it, and hold its file when asked to keep it. Usage: check_tmpdir.py TEST_BINARY FILE_NAME"""
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print('FAIL: ' + msg, flush=True)
    sys.exit(1)


def run(test_bin, tmp, keep):
    env = dict(os.environ, TMPDIR=tmp)
    env.pop('EVT_TEST_KEEP_TMP', None)
    if keep:
        env['EVT_TEST_KEEP_TMP'] = '1'
    r = subprocess.run([test_bin], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    if r.returncode != 0:
        fail('%s exit %d: %s' % (test_bin, r.returncode, r.stdout.decode(errors='replace')[-2000:]))


def main():
    test_bin, name = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        run(test_bin, tmp, False)
        left = os.listdir(tmp)
        if left:
            fail('%s left %s in TMPDIR' % (os.path.basename(test_bin), left))
        run(test_bin, tmp, True)
        kept = [d for d in os.listdir(tmp) if d.startswith('evtrace-test-')]
        if len(kept) != 1 or not os.path.isfile(os.path.join(tmp, kept[0], name)):
            fail('EVT_TEST_KEEP_TMP=1: want one evtrace-test-* holding %s, have %s' % (name, os.listdir(tmp)))
    print('tmpdir: removed at exit, kept with EVT_TEST_KEEP_TMP: ok')


if __name__ == '__main__':
    main()

"""The dependency profiles (tests/repo/deps.cmake): `scripts/deps.sh run --list` is what `make run`
and `make install` install, `check --list` adds the test tools. Checks that the run profile holds
none of the test-only tools (cmocka, llvm, the ARM toolchain, QEMU, protoc, babeltrace2, Chromium),
that check is run plus the rest, that deps.sh lists exactly scripts/deps.txt, and that the README's
dependency table names every package with the same profile.
Usage: check_deps.py SRC"""
import os
import re
import subprocess
import sys

TEST_ONLY = {'libcmocka-dev', 'llvm', 'gcc-arm-none-eabi', 'libnewlib-arm-none-eabi', 'qemu-system-arm',
             'protobuf-compiler', 'babeltrace2', 'chromium', 'python3-yaml'}


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def listed(src, profile):
    env = {k: v for k, v in os.environ.items() if k != 'EVT_EXTRA_PKGS'}
    r = subprocess.run(['bash', os.path.join(src, 'scripts', 'deps.sh'), profile, '--list'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if r.returncode != 0:
        fail('deps.sh %s --list exited %d: %s' % (profile, r.returncode, r.stderr.decode()))
    return r.stdout.decode().split()


def main():
    src = sys.argv[1]
    table = {}
    for line in open(os.path.join(src, 'scripts', 'deps.txt')):
        parts = line.split('#', 1)[0].split()
        if parts:
            if len(parts) != 2 or parts[0] not in ('run', 'check'):
                fail('scripts/deps.txt: bad line %r (PROFILE PACKAGE  # why)' % line)
            table[parts[1]] = parts[0]
    run, check = listed(src, 'run'), listed(src, 'check')
    if sorted(run) != sorted(p for p, prof in table.items() if prof == 'run'):
        fail('deps.sh run --list %s does not match the run lines of deps.txt' % run)
    if sorted(check) != sorted(table):
        fail('deps.sh check --list %s does not match deps.txt' % check)
    heavy = sorted(TEST_ONLY & set(run))
    if heavy:
        fail('the run profile (make run / make install) installs test-only packages: %s' % heavy)
    missing = sorted(TEST_ONLY - set(check))
    if missing:
        fail('the check profile lacks %s' % missing)

    readme = open(os.path.join(src, 'README.md'), encoding='utf-8').read()
    section = readme.split('## Dependencies', 1)[1].split('\n## ', 1)[0]
    shown = {}
    for row in re.findall(r'^\|([^|\n]+)\|\s*(run|check)\s*\|', section, re.M):
        for p in row[0].split(','):
            shown[p.strip()] = row[1]
    if shown != table:
        fail('README dependency table %s differs from scripts/deps.txt %s' % (shown, table))
    print('ok: run profile %d packages (%s), check profile %d; README table agrees'
          % (len(run), ' '.join(run), len(check)))


if __name__ == '__main__':
    main()

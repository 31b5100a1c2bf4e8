"""README commands run as printed (tests/repo/readme.cmake).

Copies the repository (the working tree without build*/, out/, .git) to WORK/evtrace, with
nothing beside it and HOME=WORK/home, then runs every command of the README's ```console
blocks in order, from the copy's root, each in its own `bash -o pipefail -c`:
`make run` builds there from scratch, the tour reads what it wrote (out/...) and what the
repository holds (tests/data/...), `make install PREFIX=$HOME/.local` installs into WORK/home.

A command is a line starting with "$ "; the lines after it, up to the next command, are its
printed output. Each command must exit 0, and each printed output line must be a line of what
it printed (stdout and stderr, in any order), except "..." (lines left out). A block preceded by
<!-- readme-test: output varies --> has run-dependent numbers: there, printed lines containing a
digit are not compared. Skipped, and listed as skipped: `make check` (the whole test suite,
which runs this test) and anything with sudo (installs to the system). `cd` and `export` are
refused: every command must work from the repository root on its own.
Usage: check_readme.py SRC WORK"""
import os
import re
import shutil
import subprocess
import sys

SKIP = [(re.compile(r'^make check\b'), 'the whole test suite (it runs this test)'),
        (re.compile(r'\bsudo\b'), 'installs to the system')]
VARIES = '<!-- readme-test: output varies -->'


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def copy_repo(src, dst):
    """The working tree without build*/, out/ and .git: what this build was made from (a CI
    checkout is a clean clone; `make clone-test` checks the committed files alone)."""
    shutil.copytree(src, dst, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n == '__pycache__' or
                                             (d == src and (n in ('out', '.git') or n.startswith('build')))])
    return 'the working tree without build*/, out/, .git'


def parse(readme):
    """[(command, [printed lines], varies, line number)] of the ```console blocks, in order."""
    cmds, lines = [], open(readme, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i].strip() != '```console':
            i += 1
            continue
        varies = i > 0 and lines[i - 1].strip() == VARIES
        i += 1
        while i < len(lines) and lines[i].strip() != '```':
            if lines[i].startswith('$ '):
                cmds.append((lines[i][2:], [], varies, i + 1))
            elif cmds and lines[i].strip():
                cmds[-1][1].append(lines[i].rstrip())
            i += 1
        i += 1
    return cmds


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    src, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    repo, home = os.path.join(work, 'evtrace'), os.path.join(work, 'home')
    os.makedirs(home)
    how = copy_repo(src, repo)
    print('copied %s of %s to %s (nothing beside it)' % (how, src, repo))
    env = {k: v for k, v in os.environ.items() if k not in ('MAKEFLAGS', 'MAKELEVEL', 'MFLAGS')}
    env['HOME'] = home

    cmds = parse(os.path.join(repo, 'README.md'))
    if not cmds:
        fail('no ```console command in README.md')
    if cmds[0][0] != 'make run':
        fail('the first README command is %r, expected `make run` (a fresh clone starts there)' % cmds[0][0])
    ran = skipped = 0
    for cmd, printed, varies, lineno in cmds:
        why = next((w for rx, w in SKIP if rx.search(cmd)), None)
        if why:
            print('skip README:%d $ %s  (%s)' % (lineno, cmd, why))
            skipped += 1
            continue
        if re.match(r'^(cd|export)\b', cmd):
            fail('README:%d: `%s`: commands must run from the repository root on their own' % (lineno, cmd))
        print('run  README:%d $ %s' % (lineno, cmd))
        r = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], cwd=repo, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1200)
        out = r.stdout.decode('utf-8', 'replace')
        if r.returncode != 0:
            fail('README:%d: `%s` exited %d:\n%s' % (lineno, cmd, r.returncode, out[-3000:]))
        got = set(l.rstrip() for l in out.split('\n'))
        for want in printed:
            if want == '...' or (varies and re.search(r'\d', want)):
                continue
            if want not in got:
                fail('README:%d: `%s` did not print the line shown in the README:\n  %s\n'
                     'it printed:\n%s' % (lineno, cmd, want, out[-3000:]))
        ran += 1
    print('ok: %d README commands ran as printed, %d skipped' % (ran, skipped))


if __name__ == '__main__':
    main()

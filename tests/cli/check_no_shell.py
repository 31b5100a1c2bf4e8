#!/usr/bin/env python3
"""No shell anywhere: fails if a C source or header under src/, tests/, bench/, fuzz/ or examples/
calls system() or popen(), or a Python file uses os.system, os.popen or shell=True. Usage:
check_no_shell.py REPO"""
import os
import re
import sys

C_CALL = re.compile(r'(?<![A-Za-z0-9_])(system|popen)\s*\(')
PY_CALL = re.compile(r'os\.system\s*\(|os\.popen\s*\(|shell\s*=\s*True')
DIRS = ('src', 'tests', 'bench', 'fuzz', 'examples', 'scripts')


def strip_c_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def main():
    repo = sys.argv[1]
    bad, scanned = [], 0
    for top in DIRS:
        for root, _, files in os.walk(os.path.join(repo, top)):
            for f in files:
                path = os.path.join(root, f)
                if f.endswith(('.c', '.h')):
                    pat, text = C_CALL, strip_c_comments(open(path, errors='replace').read())
                elif f.endswith('.py') and f != os.path.basename(__file__):
                    pat, text = PY_CALL, open(path, errors='replace').read()
                else:
                    continue
                scanned += 1
                for n, line in enumerate(text.split('\n'), 1):
                    if pat.search(line):
                        bad.append('%s:%d: %s' % (os.path.relpath(path, repo), n, line.strip()))
    if scanned < 50:
        print('check_no_shell: only %d files scanned under %s: wrong path?' % (scanned, repo))
        return 1
    for b in bad:
        print('shell call: ' + b)
    print('check_no_shell: %d files, %d shell calls' % (scanned, len(bad)))
    return 1 if bad else 0


sys.exit(main())

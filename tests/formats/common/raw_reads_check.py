#!/usr/bin/env python3
"""Readers read input bytes through the bounded cursor (DESIGN.md §4, src/formats/common/cursor.h),
never by raw pointer arithmetic; this keeps the conversion of issue 10 from regressing.

Rule A: no reader source calls the raw loads of src/formats/common/bytes.h (evt_ld_*): every
multi-byte field is read by the cursor (evt_cur_u32le, evt_cur_u32le_at, ...).
Rule B: in the binary readers converted field by field, no input pointer is indexed or offset
(`p[...]`, `p + X`, with the names those readers used for input bytes: p h m e head eh in raw d);
byte arrays declared as `uint8_t h[N]` are allowed (they are then read through a cursor).

usage: raw_reads_check.py SOURCE_DIR"""
import glob
import os
import re
import sys

RULE_B_FILES = ['src/formats/xray/xray_dec.c', 'src/formats/etw/etw_dec.c', 'src/formats/etw/etw_record_dec.c',
                'src/formats/etw/xpress_dec.c', 'src/formats/threadx/txtb_dec.c', 'src/formats/rkh/rkh_dec.c']
RAW_LOAD = re.compile(r'\bevt_ld_u(8|16|32|64)')
RAW_PTR = re.compile(r'\b(p|h|m|e|head|eh|in|raw|d)(\[| \+ )')
DECL = re.compile(r'^\s*(static )?(const )?uint8_t \w+\[')


def strip_comments(text):
    return re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)


def main():
    root = sys.argv[1]
    readers = sorted(set(glob.glob(os.path.join(root, 'src/formats/*/*_dec.c')) +
                         glob.glob(os.path.join(root, 'src/formats/*/*_host.c')) +
                         [os.path.join(root, 'src/host/reader.c')]))
    bad = []
    for path in readers:
        rel = os.path.relpath(path, root)
        lines = strip_comments(open(path).read()).split('\n')
        for n, line in enumerate(lines, 1):
            if RAW_LOAD.search(line):
                bad.append('%s:%d: raw load (use the cursor): %s' % (rel, n, line.strip()))
            if rel in RULE_B_FILES and RAW_PTR.search(line) and not DECL.match(line):
                bad.append('%s:%d: raw input pointer (use the cursor): %s' % (rel, n, line.strip()))
    if len(readers) < 10 or not all(os.path.exists(os.path.join(root, f)) for f in RULE_B_FILES):
        bad.append('reader sources not found under %s (%d files)' % (root, len(readers)))
    for b in bad:
        print(b)
    if bad:
        print('FAIL: %d raw reads in reader sources' % len(bad))
        sys.exit(1)
    print('raw reads: none in %d reader sources (rule B on %d files)' % (len(readers), len(RULE_B_FILES)))


if __name__ == '__main__':
    main()

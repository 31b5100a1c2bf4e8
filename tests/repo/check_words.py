#!/usr/bin/env python3
"""The word test of docs/model.md: the one timeline, the analyses, the exporters and the report
read the typed meaning block (evtrace/model.h), never a format's field name or a kernel's word.
Fails naming file:line for every such word under the format-blind directories.

Usage: check_words.py SOURCE_DIR"""
import os
import re
import sys

# Words only a format or a kernel knows: kernel services and states (ThreadX, μT-Kernel, FreeRTOS),
# the readers' field names, RKH's user-record spellings, ETW's event names.
WORDS = [
    r'\bTTS_', r'\bRDY\b', r'\bWAIT_SUSP\b', r'\bQUEUE_SUSP\b', r'\bMUTEX_SUSP\b', r'MUTEX_GET', r'MUTEX_PUT',
    r'loc_mtx', r'unl_mtx', r'\btk_[a-z]', r'\btx_[a-z]', r'\bTX_[A-Z]', r'td_hok', r'\bxQueue', r'\bxSemaphore',
    r'\bxTask', r'\beBlocked\b', r'\beReady\b', r'\bintno\b', r'\bdintno\b', r'state_entered', r'\bisr_id\b',
    r'irq_name', r'stop_reason', r'next_thread', r'ownership_count', r'sem_count', r'"enqueued"',
    r'"native_state"', r'USR#', r'hook\.[a-z]', r'CSwitch',
    # ThreadX's stack-sample words (the meaning block's sp / stack_start / stack_size carry them)
    r'"stk"', r'ctx_stack_', r'"stack_start"\s*,\s*&', r'"stack_size"\s*,\s*&',
    # any look-up of a field by its name: fields[] is for display, meaning is in evt_meaning
    r'fields\[[^\]]*\]\.key', r'strcmp\(\s*f->key',
]
DIRS = ['src/host/timeline', 'src/host/analyses', 'src/host/exporters', 'src/host/report']
EXTS = ('.c', '.h', '.def', '.js', '.html', '.css')


def main():
    root = sys.argv[1]
    pat = re.compile('|'.join('(?:%s)' % w for w in WORDS))
    bad, files = [], 0
    for d in DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            for n in sorted(names):
                if not n.endswith(EXTS):
                    continue
                files += 1
                p = os.path.join(dirpath, n)
                with open(p, encoding='utf-8', errors='replace') as f:
                    for i, line in enumerate(f, 1):
                        m = pat.search(line)
                        if m:
                            bad.append('%s:%d: %r in: %s' % (os.path.relpath(p, root), i, m.group(0), line.strip()))
    if files < 20:
        print('FAIL: only %d files under %s: wrong source dir?' % (files, DIRS))
        return 1
    for b in bad:
        print('FAIL: ' + b)
    if bad:
        print('%d format or kernel word(s) in format-blind code: decide meaning in the reader '
              '(evt_meaning, src/host/kernels/) and read it here' % len(bad))
        return 1
    print('ok: %d files, no format or kernel word' % files)
    return 0


if __name__ == '__main__':
    sys.exit(main())

"""Constant-memory test of the exporters: synthetic traces of 500k and 1.5M events converted to each
exporter (and stats/report) in a child process whose peak RSS (wait4) must stay under 64 MB (not
under sanitizers, whose shadow memory dominates) and must not grow with the trace (< 8 MB from
500k to 1.5M events; also not checked under sanitizers, whose quarantine holds freed memory;
the figure includes the pages a forked Python carries over exec, so it is an upper bound). The 50M-event runs are in `make bench` (bench_export)."""
import os
import subprocess
import sys
import tempfile
from export_common import fail

KINDS = ['perfetto', 'sqlite', 'ctf', 'chrome', 'stats', 'report']


def peak_rss_kb(argv):
    # posix_spawn (vfork-like): the child's peak RSS is evtrace's own, not a copy of Python's
    nul = os.open(os.devnull, os.O_WRONLY)
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, nul, 1)])
    os.close(nul)
    _, status, ru = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        fail('%s failed (%d)' % (' '.join(argv), code))
    return ru.ru_maxrss


def main():
    evtrace, sanitized = sys.argv[1], len(sys.argv) > 2 and sys.argv[2] != ''
    with tempfile.TemporaryDirectory() as tmp:
        res = {}
        for n in (500000, 1500000):
            spec = os.path.join(tmp, '%d.syn' % n)
            with open(spec, 'w') as f:
                f.write('evtrace-synthetic 1\nevents %d\nthreads 16\nhz 1000000\nlost_every 100000\n' % n)
            for k in KINDS:
                out = os.path.join(tmp, 'out.%s' % k)
                if k == 'stats':
                    argv = [evtrace, 'stats', '--json', spec]
                elif k == 'report':
                    argv = [evtrace, 'report', '-q', spec, '-o', out]
                else:
                    argv = [evtrace, 'convert', '-q', spec, '-o', out, '--to', k]
                res[(k, n)] = peak_rss_kb(argv)
                subprocess.run(['rm', '-rf', out])
        for k in KINDS:
            small, big = res[(k, 500000)], res[(k, 1500000)]
            print('%-8s peak RSS %6d kB at 500k events, %6d kB at 1.5M events' % (k, small, big))
            if not sanitized and big > 64 * 1024:
                fail('%s: peak RSS %d kB >= 64 MB' % (k, big))
            # ASan keeps freed blocks in its quarantine, so a malloc-heavy exporter (SQLite) shows
            # RSS growth there that is not ours: the growth check runs in the plain build.
            if not sanitized and big - small > 8 * 1024:
                fail('%s: memory grows with the trace (%d -> %d kB)' % (k, small, big))
    print('scale: ok')


if __name__ == '__main__':
    main()

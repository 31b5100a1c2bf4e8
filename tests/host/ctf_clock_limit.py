"""CTF clock values past what babeltrace2 reads (ctf.c, CTF_CLOCK_MAX). babeltrace2 turns every
clock value into signed 64-bit ns from the origin and refuses the whole trace when one is
INT64_MAX or more. A damaged timestamp reaches that: here the TSC of the XRay sample's first
NewCPUId record (the 16-byte metadata record at offset 96: type byte, u16 CPU, u64 TSC at 99) is
set to 0x7ffffffffffffff0, so every later event of that buffer is ~2^63 ns. Checks, for that
file and for it cut at 2100 bytes (a truncated buffer: a counted loss in the same stream):
convert --to ctf succeeds, babeltrace2 reads the output (exit 0), the metadata counts the
clamped values in env.time_clamped, and the cut file's loss is still reported as discarded
events.

usage: ctf_clock_limit.py EVTRACE SAMPLES_DIR"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_common import fail, run  # noqa: E402


def main():
    evtrace, samples = sys.argv[1:3]
    if not shutil.which('babeltrace2'):
        fail('babeltrace2 is missing')
    data = bytearray(open(os.path.join(samples, 'xray', 'fdr-v5-small.xray'), 'rb').read())
    if data[96] != 0x05:
        fail('the sample changed: no NewCPUId record at offset 96')
    data[99:107] = struct.pack('<Q', 0x7ffffffffffffff0)
    tmp = tempfile.mkdtemp(prefix='evtrace-ctf-clock-')
    try:
        for name, blob, lost in (('huge_tsc.xray', data, False), ('huge_tsc_cut.xray', data[:2100], True)):
            path = os.path.join(tmp, name)
            open(path, 'wb').write(blob)
            out = path + '.ctf'
            r = run([evtrace, 'convert', path, '-o', out, '--to', 'ctf'])
            if r.returncode not in (0, 1) or not os.path.isdir(out):
                fail('%s: convert exit %d: %s' % (name, r.returncode, r.stderr.decode()[-400:]))
            b = subprocess.run(['babeltrace2', out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            if b.returncode != 0:
                fail('%s: babeltrace2 refuses the CTF (exit %d): %s' % (name, b.returncode, b.stderr.decode()[-600:]))
            meta = open(os.path.join(out, 'metadata')).read()
            m = re.search(r'\ttime_clamped = (\d+);', meta)
            if not m or int(m.group(1)) == 0:
                fail('%s: env.time_clamped missing or 0' % name)
            if lost and 'discarded' not in b.stderr.decode():
                fail('%s: the loss is not reported as discarded events: %s' % (name, b.stderr.decode()[-300:]))
            print('ok   %s: babeltrace2 reads it, time_clamped = %s' % (name, m.group(1)))
    finally:
        shutil.rmtree(tmp, True)
    print('CTF clock limit: ok')


if __name__ == '__main__':
    main()

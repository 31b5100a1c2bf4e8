"""HTML report test with headless Chromium (Debian package chromium): for every readable sample and
a synthetic trace, `evtrace report` writes one page that Chromium loads with no console message
(errors, uncaught exceptions), whose own self-check (rows of the timeline and of the contexts table
against the embedded stats JSON) writes "evtrace-report-ok", that needs no network (no http(s)
URL in the page) and whose screenshot shows the timeline (pixels of the thread/ISR colours)."""
import os
import re
import shutil
import struct
import sys
import tempfile
import zlib
from export_common import fail, run, readable_samples

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run']
THREAD = (0x25, 0x63, 0xeb)
ISR = (0xdc, 0x26, 0x26)


def chromium(args, tmp):
    udd = tempfile.mkdtemp(dir=tmp)
    return run(['timeout', '120', 'chromium'] + FLAGS + ['--user-data-dir=' + udd] + args)


def png_pixels(path):
    """Decode an 8-bit RGB/RGBA non-interlaced PNG -> (w, h, rows of bytes, bytes per pixel)."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        fail('screenshot is not a PNG')
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                fail('unexpected PNG layout depth=%d type=%d' % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows, bpp


def count_colour(rows, bpp, rgb):
    n = 0
    for r in rows:
        for x in range(0, len(r), bpp):
            if abs(r[x] - rgb[0]) <= 2 and abs(r[x + 1] - rgb[1]) <= 2 and abs(r[x + 2] - rgb[2]) <= 2:
                n += 1
    return n


def check(evtrace, path, tmp, shot):
    out = os.path.join(tmp, os.path.basename(path) + '.html')
    r = run([evtrace, 'report', '-q', path, '-o', out])
    if r.returncode not in (0, 1) or not os.path.exists(out):
        fail('report failed on %s: %s' % (path, r.stderr.decode()))
    html = open(out, encoding='utf-8', errors='replace').read()
    if re.search(r'(src|href)\s*=\s*"(https?:)?//', html) or 'http://' in html or 'https://' in html:
        fail('%s: the report refers to the network' % out)
    d = chromium(['--enable-logging=stderr', '--v=0', '--dump-dom', 'file://' + out], tmp)
    if d.returncode != 0:
        fail('chromium failed (%d) on %s: %s' % (d.returncode, out, d.stderr.decode()[-2000:]))
    console = [l for l in d.stderr.decode('utf-8', 'replace').splitlines() if ':CONSOLE' in l]
    if console:
        fail('%s: console messages: %r' % (out, console[:5]))
    m = re.search(r'id="selfcheck"[^>]*>([^<]*)<', d.stdout.decode('utf-8', 'replace'))
    if not m or not m.group(1).startswith('evtrace-report-ok'):
        fail('%s: self-check: %r' % (out, m.group(1) if m else None))
    msg = m.group(1)
    if shot:
        png = os.path.join(tmp, os.path.basename(path) + '.png')
        s = chromium(['--window-size=1300,900', '--hide-scrollbars', '--screenshot=' + png, 'file://' + out], tmp)
        if s.returncode != 0 or not os.path.exists(png):
            fail('chromium screenshot failed: %s' % s.stderr.decode()[-2000:])
        w, h, rows, bpp = png_pixels(png)
        # the timeline is the first chart: thread (and ISR when the trace has them) bars in the top half
        top = rows[:h // 2]
        nt, ni = count_colour(top, bpp, THREAD), count_colour(top, bpp, ISR)
        if nt < 200:
            fail('%s: screenshot %dx%d shows no timeline (%d thread pixels)' % (png, w, h, nt))
        msg += ', screenshot %dx%d: %d thread px, %d ISR px' % (w, h, nt, ni)
        keep = os.environ.get('EVT_REPORT_SHOT_DIR')
        if keep:
            shutil.copy(png, keep)
    print('%s: %s' % (os.path.basename(path), msg))


def main():
    evtrace, samples, data = sys.argv[1:4]
    if not shutil.which('chromium'):
        fail('chromium missing (package chromium)')
    with tempfile.TemporaryDirectory() as tmp:
        files = readable_samples(evtrace, samples) + [os.path.join(data, 'small.syn'), os.path.join(data, 'weird.syn')]
        for p in files:
            check(evtrace, p, tmp, shot=('nowrap_m32le' in p or p.endswith('small.syn')))


if __name__ == '__main__':
    main()

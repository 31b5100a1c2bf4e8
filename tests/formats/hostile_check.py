#!/usr/bin/env python3
"""Bounded work on hostile inputs (issue 10 item 2): each case builds an input that made a reader
slow or made it allocate without bound, runs `evtrace` on it in a child (posix_spawn) and checks
the child's CPU time (user + system from wait4, < 10 s; x3 under sanitizers: CPU time, not wall time,
so a loaded machine does not fail the test; the wall time is bounded by CTest's TIMEOUT) and its peak RSS from wait4 (< 256 MB; not
checked under sanitizers, whose shadow memory dominates), the exit code, and that the result is
honest (the events it holds, or an error naming the limit with its offset).

usage: hostile_check.py EVTRACE SANITIZER('' or name) TEST_DATA_DIR CASE"""
import json
import os
import struct
import sys
import tempfile
import time

TIME_BUDGET = 10.0
RSS_BUDGET_KB = 256 * 1024


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def run(argv, sanitized, stdin=None):
    """(exit code, stdout, stderr, seconds, peak RSS kB) of evtrace argv (standard input from the
    file stdin, if given), checked against budgets."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        acts = [(os.POSIX_SPAWN_DUP2, out.fileno(), 1), (os.POSIX_SPAWN_DUP2, err.fileno(), 2)]
        if stdin:
            acts.append((os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0))
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=acts)
        _, status, ru = os.wait4(pid, 0)
        wall = time.monotonic() - t0
        secs = ru.ru_utime + ru.ru_stime  # the work evtrace did, whatever else the machine runs
        out.seek(0)
        err.seek(0)
        o, e = out.read().decode('utf-8', 'replace'), err.read().decode('utf-8', 'replace')
    code = os.waitstatus_to_exitcode(status)
    what = ' '.join(os.path.basename(a) for a in argv[1:])
    print('%-60s exit %d  %6.2f s CPU (%6.2f s wall)  peak RSS %7d kB' % (what[:60], code, secs, wall, ru.ru_maxrss))
    if code < 0 or 'Sanitizer' in e or 'runtime error' in e:
        fail('%s crashed (%d): %s' % (what, code, e[-400:]))
    if secs > TIME_BUDGET * (3 if sanitized else 1):
        fail('%s took %.1f s of CPU (budget %.0f s)' % (what, secs, TIME_BUDGET))
    if not sanitized and ru.ru_maxrss > RSS_BUDGET_KB:
        fail('%s peak RSS %d kB (budget %d kB)' % (what, ru.ru_maxrss, RSS_BUDGET_KB))
    return code, o, e, secs, ru.ru_maxrss


def expect(cond, msg):
    if not cond:
        fail(msg)


# ---- XRay --------------------------------------------------------------------------------------

def xray_md(kind, body):
    b = bytes([(kind << 1) | 1]) + body
    return b + bytes(16 - len(b))


def xray_fdr(path, threads, fn_words=None):
    """FDR v5 file: one block per thread (NewBuffer, Walltime, Pid, NewCPUId, records)."""
    with open(path, 'wb') as f:
        f.write(struct.pack('<HHIQQQ', 5, 1, 3, 1000000000, 4096, 0))
        for t in range(threads):
            recs = fn_words(t) if fn_words else struct.pack('<II', (1 << 4) | 0, 5)
            blk = (xray_md(0, struct.pack('<i', t + 1)) + xray_md(4, struct.pack('<qi', 1, t)) +
                   xray_md(9, struct.pack('<i', 7)) + xray_md(2, struct.pack('<HQ', 0, 1000 + t)) + recs)
            f.write(xray_md(7, struct.pack('<Q', len(blk))) + blk)


def case_xray_threads(ev, san, tmp):
    p = os.path.join(tmp, 'threads.xray')
    xray_fdr(p, 160000)   # 14 MB: was 45 s and 267 MB (linear lookup, 1.7 KB per thread)
    code, o, _, _, _ = run([ev, 'info', '--json', p], san)
    j = json.loads(o)
    expect(code == 0 and j['events'] == 160000 and j['errors'] == 0 and len(j['threads']) == 160000,
           'xray 160k threads: exit %d, %d events, %d errors' % (code, j['events'], j['errors']))


def case_xray_thread_limit(ev, san, tmp):
    p = os.path.join(tmp, 'limit.xray')
    xray_fdr(p, 300000)   # past the documented 262,144 threads
    code, o, e, _, _ = run([ev, 'info', '--json', p], san)
    j = json.loads(o)
    expect(code == 1 and 'thread limit' in e and 'offset' in e, 'xray thread limit: exit %d, stderr %r' % (code, e[:300]))
    # the threads within the limit, plus one lost event: the 72-byte blocks of the others
    expect(j['events'] == 262144 + 1 and j['lost'] == (300000 - 262144) * 72,
           'xray thread limit: %d events, %d lost bytes' % (j['events'], j['lost']))


def case_xray_deep_stack(ev, san, tmp):
    # one thread: 1M entries of f1, then 1M exits of f2 (never entered): each exit searches the stack
    n = 1000000
    words = struct.pack('<II', (1 << 4) | 0, 1) * n + struct.pack('<II', (2 << 4) | (1 << 1), 1) * n
    p = os.path.join(tmp, 'deep.xray')
    xray_fdr(p, 1, lambda t: words)
    code, o, _, _, _ = run([ev, 'info', '--json', p], san)
    j = json.loads(o)
    th = j['per_thread']['1']
    expect(code == 0 and j['events'] == 2 * n and th['max_depth'] == n and th['unmatched_exits'] == n,
           'xray deep stack: exit %d, %s' % (code, json.dumps(th)[:300]))


def case_xray_basic_threads(ev, san, tmp):
    # basic v3: 160k records, each of a new thread (one block each)
    p = os.path.join(tmp, 'basic.xray')
    with open(p, 'wb') as f:
        f.write(struct.pack('<HHIQQQ', 3, 0, 3, 1000000000, 0, 0))
        for t in range(160000):
            f.write(struct.pack('<HBBiQIIQ', 0, 0, 0, 7, 1000 + t, t + 1, 9, 0))
    code, o, _, _, _ = run([ev, 'info', '--json', p], san)
    j = json.loads(o)
    expect(code == 0 and j['events'] == 160000, 'xray basic threads: exit %d, %d events' % (code, j['events']))


# ---- RKH ---------------------------------------------------------------------------------------

def rkh_stream(path, bodies):
    """Default configuration (no TCFG): id, seq, u32 ts, args, checksum; stuffed; flag-separated."""
    with open(path, 'wb') as f:
        f.write(b'\x7e')
        for seq, body in enumerate(bodies):
            rec = bytes([body[0], seq & 255]) + struct.pack('<I', seq) + body[1:]
            rec += bytes([(-sum(rec)) & 255])
            f.write(rec.replace(b'\x7d', b'\x7d\x5d').replace(b'\x7e', b'\x7d\x5e') + b'\x7e')


def fwk_obj(addr, name):
    return bytes([0xA6]) + struct.pack('<I', addr) + name + b'\0'


def case_rkh_symbols(ev, san, tmp):
    p = os.path.join(tmp, 'symbols.rkh')   # 3.4 MB: was 20 s (quadratic lookup)
    rkh_stream(p, (fwk_obj(0x10000000 + 4 * i, b'obj%d' % i) for i in range(160000)))
    code, o, _, _, _ = run([ev, 'info', '--json', '--format', 'rkh', p], san)
    j = json.loads(o)
    expect(code == 0 and j['events'] == 160000 and j['symbols'] == 160000,
           'rkh 160k symbols: exit %d, %d events, %d symbols' % (code, j['events'], j['symbols']))


def case_rkh_renames(ev, san, tmp):
    # one object renamed over and over: memory must not grow with the number of renames
    rss = {}
    for n in (100000, 1000000):
        p = os.path.join(tmp, 'renames%d.rkh' % n)
        rkh_stream(p, (fwk_obj(0x20000000, b'name%d' % i) for i in range(n)))
        code, o, _, _, rss[n] = run([ev, 'info', '--json', '--format', 'rkh', p], san)
        j = json.loads(o)
        expect(code == 0 and j['symbols'] == 1 and j['symbols_renamed'] == n - 1 and j['objects']['0x20000000'] == 'name%d' % (n - 1),
               'rkh renames: exit %d, %s' % (code, o[:300]))
    if not san:   # ASan's quarantine holds freed names
        expect(rss[1000000] - rss[100000] < 8 * 1024, 'rkh renames: memory grows (%d -> %d kB)' % (rss[100000], rss[1000000]))


def case_rkh_symbol_cap(ev, san, tmp):
    # 40 names of 500 KB: past the documented 16 MiB of symbol tables
    p = os.path.join(tmp, 'bigsyms.rkh')
    rkh_stream(p, (fwk_obj(0x30000000 + 4 * i, b'n%d_' % i + b'x' * 500000) for i in range(40)))
    code, o, e, _, _ = run([ev, 'info', '--json', '--format', 'rkh', p], san)
    j = json.loads(o)
    kept = j['symbols']
    expect(code == 1 and 'symbol tables full' in e and 'offset' in e and j['symbols_dropped'] == 40 - kept
           and 0 < kept < 40 and j['symbol_bytes'] <= 16 << 20 and j['events'] == 40,
           'rkh symbol cap: exit %d, kept %d, stderr %r' % (code, kept, e[:200]))


# ---- ThreadX -----------------------------------------------------------------------------------

def txtb_header(base, reg_start, name_size, reg_end, buf_start, buf_end, cur):
    return struct.pack('<IIII', 0x54585442, 0xFFFFFFFF, base, base + reg_start) + \
        struct.pack('<HH', 0, name_size) + \
        struct.pack('<7I', base + reg_end, base + buf_start, base + buf_end, base + cur, 0, 0, 0)


def txtb_slot(ctx, ts, ev_id=1):
    return struct.pack('<8I', ctx, 0x80000010, ev_id, ts, ctx, 0, 0, 0)


def case_threadx_sparse(ev, san, tmp):
    # a 2 GB file, mostly a sparse zero registry: was 6.8 GB (registry held whole)
    p = os.path.join(tmp, 'sparse.trx')
    name_size, entries = 32, (2 << 30) // 48
    reg_end = 48 + 48 * entries
    with open(p, 'wb') as f:
        f.write(txtb_header(0x1000, 48, name_size, reg_end, reg_end, reg_end + 32 * 4, reg_end + 32 * 2))
        f.write(struct.pack('<BBBBIII', 0, 1, 0, 0, 0xAAAA0000, 1, 2) + b'main'.ljust(32, b'\0'))
        f.seek(reg_end)
        f.write(txtb_slot(0xAAAA0000, 10) + txtb_slot(0xAAAA0000, 20) + bytes(64))
    code, o, e, _, _ = run([ev, 'info', '--json', p], san)
    j = json.loads(o)
    # only the first 64 MiB of a registry are read (documented limit): an error, the events decode
    expect(code == 1 and j['events'] == 2 and j['registry_entries'] == entries and len(j['objects']) == 1
           and 'limit' in e and 'offset %d' % (48 + (64 << 20) // 48 * 48) in e,
           'threadx sparse registry: exit %d, %s %s' % (code, o[:200], e[:300]))
    code, o, _, _, _ = run([ev, 'dump', '--json', p], san)
    expect(code == 1 and [json.loads(l).get('ctx_name') for l in o.splitlines()] == ['main', 'main'],
           'threadx sparse registry: dump %r' % o[:300])


def case_threadx_objects(ev, san, tmp):
    # 1.2M used registry entries with empty names (16 B each): past the 1,048,576 indexed
    p = os.path.join(tmp, 'objects.trx')
    n = 1200000
    reg_end = 48 + 16 * n
    with open(p, 'wb') as f:
        f.write(txtb_header(0x1000, 48, 0, reg_end, reg_end, reg_end + 32 * 2, reg_end + 32))
        for i in range(n):
            f.write(struct.pack('<BBBBIII', 0, 2, 0, 0, 0x100000 + 16 * i, 0, 0))
        f.write(txtb_slot(0xF0F0F0F0, 1) + bytes(32))
    code, o, e, _, _ = run([ev, 'check', p], san)
    expect(code == 1 and 'more than 1048576 used entries' in e and 'offset %d' % (48 + 16 * 1048576) in e,
           'threadx object limit: exit %d, stderr %r' % (code, e[:300]))


def case_threadx_unwritten(ev, san, tmp):
    # 4M never-written slots inside the recorded range: one error per run, not one per slot
    p = os.path.join(tmp, 'zeros.trx')
    slots = 4 << 20
    with open(p, 'wb') as f:
        f.write(txtb_header(0x1000, 48, 32, 48, 48, 48 + 32 * slots, 48 + 32 * (slots - 1)))
        f.write(txtb_slot(0xF0F0F0F0, 1))
        f.truncate(48 + 32 * slots)
    code, o, e, _, _ = run([ev, 'info', '--json', p], san)
    j = json.loads(o)
    expect(code == 1 and j['events'] == 1 and j['errors'] == 1 and 'never written' in e,
           'threadx unwritten run: exit %d, %s' % (code, o[:200]))


# ---- --elf (user-event sites) -------------------------------------------------------------------

def small_trx(tmp):
    p = os.path.join(tmp, 'two.trx')
    with open(p, 'wb') as f:
        f.write(txtb_header(0x1000, 48, 32, 48, 48, 48 + 32 * 4, 48 + 32 * 2))
        f.write(txtb_slot(0xAAAA0000, 10) + txtb_slot(0xAAAA0000, 20) + bytes(64))
    return p


def case_elf_large(ev, san, tmp):
    # a 32-bit ELF of 1 GB (sparse): .evt_user with one site and the name table at its start, the
    # section header table at its end; was refused ("file too large", the whole file read to 256 MB)
    site = struct.pack('<IIHHBBH', 0x55545645, 0, 3, 9, 0, 0, 0) + b'ch\0' + b'hello %d\0'
    site += bytes(-len(site) % 4)
    names = b'\0.evt_user\0.shstrtab\0'
    shoff = 1 << 30
    p = os.path.join(tmp, 'big.elf')
    with open(p, 'wb') as f:
        f.write(b'\x7fELF' + bytes([1, 1, 1]) + bytes(9) +
                struct.pack('<HHIIIIIHHHHHH', 2, 40, 1, 0, 0, shoff, 0, 52, 0, 0, 40, 3, 2))
        f.write(site + names)
        f.seek(shoff)
        f.write(bytes(40) + struct.pack('<10I', 1, 1, 2, 0x08001000, 52, len(site), 0, 0, 4, 0) +
                struct.pack('<10I', 11, 3, 0, 0, 52 + len(site), len(names), 0, 0, 1, 0))
    code, o, e, _, _ = run([ev, 'info', '--json', '--elf', p, small_trx(tmp)], san)
    expect(code == 0 and json.loads(o)['events'] == 2, 'elf large: exit %d, %r' % (code, e[:300]))


def case_elf_device(ev, san, tmp):
    # --elf /dev/zero was read to 256 MB (270 MB peak RSS) before "file too large", naming no file
    code, _, e, _, _ = run([ev, 'info', '--elf', '/dev/zero', small_trx(tmp)], san)
    expect(code == 2 and '/dev/zero' in e and 'not a regular file' in e, 'elf /dev/zero: exit %d, %r' % (code, e[:300]))
    code, _, e, _, _ = run([ev, 'info', '--elf', tmp, small_trx(tmp)], san)
    expect(code == 2 and 'is a directory' in e, 'elf directory: exit %d, %r' % (code, e[:300]))
    code, _, e, _, _ = run([ev, 'info', '--elf', os.path.join(tmp, 'none.elf'), small_trx(tmp)], san)
    expect(code == 2 and 'none.elf: cannot open: No such file' in e, 'elf missing: exit %d, %r' % (code, e[:300]))


# ---- streams ------------------------------------------------------------------------------------

def case_stream_buffer(ev, san, tmp):
    # a format that needs the whole trace, on standard input: 300 MB (a ThreadX buffer, then a
    # sparse run of zeros) was held in memory (318 MB peak RSS; a 3 GB pipe took 2.9 GB)
    p = small_trx(tmp)
    with open(p, 'r+b') as f:
        f.truncate(300 << 20)
    code, o, e, _, _ = run([ev, 'info', '--json', '-'], san, stdin=p)
    j = json.loads(o)
    expect(code == 0 and j['events'] == 2 and j['size'] == 300 << 20,
           'stream buffer: exit %d, %s %r' % (code, o[:200], e[:300]))


# ---- ETW ---------------------------------------------------------------------------------------

def etl_start(f, samples):
    """Buffer 0 (the logfile header) of the lxcore sample, and its buffer 1 header as a template."""
    d = open(os.path.join(samples, 'etw', 'etl-parser_lxcore_kernel.etl'), 'rb').read()
    f.write(d[:0x2000])
    return bytearray(d[0x2000:0x2000 + 72])


def etl_buffer(tmpl, seq, proc, payload, size=None):
    h = bytearray(tmpl)
    size = size or 72 + len(payload)
    struct.pack_into('<I', h, 0x00, size)
    struct.pack_into('<Q', h, 0x18, seq)
    struct.pack_into('<H', h, 0x28, proc)
    struct.pack_into('<I', h, 0x30, 72 + len(payload))
    struct.pack_into('<H', h, 0x34, struct.unpack_from('<H', h, 0x34)[0] & ~0x0001)   # not compressed
    return bytes(h) + payload + bytes(size - 72 - len(payload))


def case_etw_buffers(ev, san, tmp, samples):
    # 1.1M empty 72-byte buffers on 256 processors: past the documented 1,048,576 buffers
    p = os.path.join(tmp, 'buffers.etl')
    n = 1100000
    with open(p, 'wb') as f:
        tmpl = etl_start(f, samples)
        for i in range(n):
            f.write(etl_buffer(tmpl, i, i % 256, b''))
    code, o, e, _, _ = run([ev, 'info', '--json', '--format', 'etw', p], san)
    j = json.loads(o)
    expect(code == 1 and 'buffer limit' in e and j['buffers'] == 1 << 20 and j['streams'] == 256,
           'etw buffer limit: exit %d, stderr %r, %s' % (code, e[:200], o[:200]))


def case_etw_providers(ev, san, tmp, samples):
    # 200k EVENT_HEADER64 records, each of its own provider GUID: was a linear search per record (22 s)
    p = os.path.join(tmp, 'providers.etl')
    n, per = 200000, 100   # the session BufferSize is 8 KiB
    with open(p, 'wb') as f:
        tmpl = etl_start(f, samples)
        for b in range(n // per):
            recs = bytearray()
            for k in range(per):
                i = b * per + k
                rec = bytearray(80)
                struct.pack_into('<HBB', rec, 0, 80, 0x13, 0xC0)
                struct.pack_into('<IIQ', rec, 8, 1, 2, 111046470000 + i)
                struct.pack_into('<I12x', rec, 0x18, i)
                recs += rec
            f.write(etl_buffer(tmpl, b, 0, bytes(recs), 8192))
    code, o, e, _, _ = run([ev, 'info', '--json', '--format', 'etw', p], san)
    j = json.loads(o)
    expect(code == 0 and len(j['providers']) == 65536 and j['providers_untracked'] == n + 1 - 65536,  # + the header's EventTrace GUID
           'etw providers: exit %d, %d providers, stderr %r' % (code, len(j.get('providers', {})), e[:200]))


# ---- synthetic ---------------------------------------------------------------------------------

def case_synthetic_events(ev, san, tmp):
    # a 40-byte spec asking for 10^14 events: refused with the documented limit (1e9)
    p = os.path.join(tmp, 'huge.syn')
    with open(p, 'w') as f:
        f.write('evtrace-synthetic 1\nevents 100000000000000\n')
    code, _, e, _, _ = run([ev, 'check', p], san)
    expect(code == 3 and 'limit is 1000000000' in e and 'offset 20' in e, 'synthetic events: exit %d, %r' % (code, e[:200]))


CASES = {k[5:]: v for k, v in globals().items() if k.startswith('case_')}


def main():
    ev, san, samples, case = sys.argv[1], sys.argv[2] != '', sys.argv[3], sys.argv[4]
    if case not in CASES:
        fail('unknown case %s (known: %s)' % (case, ' '.join(sorted(CASES))))
    with tempfile.TemporaryDirectory() as tmp:
        if case.startswith('etw'):
            CASES[case](ev, san, tmp, samples)
        else:
            CASES[case](ev, san, tmp)
    print('hostile %s: ok' % case)


if __name__ == '__main__':
    main()

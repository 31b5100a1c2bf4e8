#!/usr/bin/env python3
"""Damage tests for the RKH reader. A long stream is written here by an independent framer (the
RKH rules of formats/rkh.md: TCFG first, then SM_STATE records with seq, 32-bit timestamp and
checksum, 0x7E flags, 0x7D escapes); then it is damaged in the ways the issue lists, and each case
must be reported exactly (counts, offsets) while every other frame still decodes."""
import json, os, subprocess, sys, tempfile

evtrace = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="evtrace-rkh-")
fails = []
N = 2000


def stuff(rec):
    out = bytearray()
    for b in rec:
        if b in (0x7E, 0x7D):
            out += bytes([0x7D, b ^ 0x20])
        else:
            out.append(b)
    return out


def record(body):
    chk = (-sum(body)) & 0xFF
    return stuff(bytes(body) + bytes([chk])) + b"\x7e"


def u32(v):
    return list(v.to_bytes(4, "little"))


# TCFG: version 3.4.00, flags: all on except sender/LWM; sizes: sig 1, ts 4, ptr 4, ntimer 2, ...
flags = 0x3FFFF & ~(1 | (1 << 11) | (1 << 12))
tcfg = [0xAC, 0x00, 0x34] + u32(flags) + [0x14, 0x42, 0x11, 0x02, 0x10, 0x40, 0x42]
stream = bytearray(b"\x7e") + record(tcfg)
starts = []  # offset of each SM_STATE frame's first byte
for i in range(N):
    starts.append(len(stream))
    # values chosen so that some bytes need escaping (0x7E / 0x7D appear in pointers)
    body = [0x63, i & 0xFF] + u32(1000 + 7 * i) + u32(0x20001000 + (i % 3) * 0x7E) + u32(0x20007D00 + i)
    stream += record(body)
clean = bytes(stream)


def info(data, name):
    p = os.path.join(tmp, name)
    open(p, "wb").write(data)
    r = subprocess.run([evtrace, "info", "--json", p], capture_output=True, text=True)
    if r.returncode not in (0, 1) or "Sanitizer" in r.stderr:
        fails.append(f"{name}: exit {r.returncode}: {r.stderr[-300:]}")
        return {}, "", r.returncode
    d = subprocess.run([evtrace, "dump", "--json", p], capture_output=True, text=True)
    evs = [json.loads(l) for l in d.stdout.splitlines()]
    j = json.loads(r.stdout)
    j["_states"] = sum(1 for e in evs if e["name"] == "SM_STATE")
    j["_lost"] = [e["count"] for e in evs if e["kind"] == "lost"]
    return j, r.stderr, r.returncode


def expect(name, data, code, **want):
    j, err, rc = info(data, name)
    if rc != code:
        fails.append(f"{name}: exit {rc}, want {code}")
    for k, v in want.items():
        if k == "stderr":
            for s in v:
                if s not in err:
                    fails.append(f"{name}: stderr lacks {s!r}: {err.strip()[:300]}")
        elif j.get(k) != v:
            fails.append(f"{name}: {k} = {j.get(k)!r}, want {v!r}")


expect("clean", clean, 0, frames=N + 1, frames_ok=N + 1, seq_gaps=0, missing_records=0, checksum_errors=0,
       trailing_bytes=0, _states=N)

# 1. one flipped bit inside frame 500 (a byte that does not become a flag or escape)
k = starts[500] + 8
b = bytearray(clean)
bit = 0x01 if (b[k] ^ 0x01) not in (0x7E, 0x7D) else 0x02
b[k] ^= bit
expect("bitflip", bytes(b), 1, frames=N + 1, frames_ok=N, checksum_errors=1, seq_gaps=1, missing_records=1,
       _states=N - 1, _lost=[1], stderr=[f"offset {starts[500]}"])

# 2. 300 bytes cut out mid-frame: from inside frame a to inside frame b
a_off = starts[1000] + 5
cut = bytes(clean[:a_off] + clean[a_off + 300:])
b_idx = max(i for i in range(N) if starts[i] <= a_off + 300)
lost = b_idx - 1000 + 1
expect("cut300", cut, 1, frames=N + 1 - (b_idx - 1000), frames_ok=N + 1 - lost, checksum_errors=1, seq_gaps=1,
       missing_records=lost, _states=N - lost, _lost=[lost])

# 3. an escape inserted before the flag that closes frame 1500
end1500 = starts[1501] - 1
esc = bytes(clean[:end1500] + b"\x7d" + clean[end1500:])
expect("escflag", esc, 1, frames=N, frames_ok=N, aborted_frames=1, seq_gaps=1, missing_records=1,
       _states=N - 1, stderr=["aborted"])

# 4. a truncated tail: the last frame loses its end
tail = clean[: starts[N - 1] + 6]
expect("tail", tail, 1, frames=N, frames_ok=N, trailing_bytes=6, _states=N - 1, _lost=[1], lost=1, damaged_lost=1,
       stderr=["trailing"])

# 4b. the last frame's checksum wrong: no numbered frame follows to show a gap, yet its record is
# lost and counted (a lost event of 1 at its offset)
b = bytearray(clean)
k = starts[N - 1] + 8
b[k] ^= 0x01 if (b[k] ^ 0x01) not in (0x7E, 0x7D) else 0x02
expect("lastchk", bytes(b), 1, frames=N + 1, frames_ok=N, checksum_errors=1, seq_gaps=0, _states=N - 1, _lost=[1],
       lost=1, damaged_lost=1, stderr=[f"offset {starts[N - 1]}"])
# 4c. a damaged frame followed by good ones: the gap counts it, once (no second lost event)
b = bytearray(clean)
k = starts[700] + 8
b[k] ^= 0x01 if (b[k] ^ 0x01) not in (0x7E, 0x7D) else 0x02
expect("midchk", bytes(b), 1, checksum_errors=1, seq_gaps=1, _states=N - 1, _lost=[1], lost=1, damaged_lost=0)
# 4c'. the first numbered frame damaged: no earlier number can show a gap, so it is lost here (it
# was an error with lost 0); and the TCFG record damaged, which has no number at all (same)
b = bytearray(clean)
k = starts[0] + 8
b[k] ^= 0x01 if (b[k] ^ 0x01) not in (0x7E, 0x7D) else 0x02
expect("firstchk", bytes(b), 1, checksum_errors=1, seq_gaps=0, _states=N - 1, _lost=[1], lost=1, damaged_lost=1,
       stderr=[f"offset {starts[0]}"])
b = bytearray(clean)
b[5] ^= 0x01  # a flags byte of the TCFG record
expect("tcfgchk", bytes(b), 1, checksum_errors=1, seq_gaps=0, _states=N, _lost=[1], lost=1, damaged_lost=1,
       stderr=["offset 1 ", "TCFG"])
# ... also two damaged frames first, then the damaged TCFG of a restart and its first frame
b = bytearray(clean)
for i in (0, 1):
    k = starts[i] + 8
    b[k] ^= 0x01 if (b[k] ^ 0x01) not in (0x7E, 0x7D) else 0x02
expect("first2chk", bytes(b), 1, checksum_errors=2, seq_gaps=0, _states=N - 2, _lost=[2], lost=2, damaged_lost=2)
r = bytearray(clean)
k = starts[0] + 8
r[k] ^= 0x01 if (r[k] ^ 0x01) not in (0x7E, 0x7D) else 0x02
expect("restart_firstchk", clean + bytes(r), 1, checksum_errors=1, restarts=0, _states=2 * N - 1, lost=(1 - N) % 256)

# 4d. without sequence numbers (TCFG NSEQ off, frames without the seq byte) nothing else can count
# a damaged record: each checksum error is a lost record
tcfg_ns = [0xAC, 0x00, 0x34] + u32(flags & ~(1 << 15)) + tcfg[7:]
ns = bytearray(b"\x7e") + record(tcfg_ns)
ns_starts = []
for i in range(50):
    ns_starts.append(len(ns))
    ns += record([0x63] + u32(1000 + 7 * i) + u32(0x20001000) + u32(0x20002000 + i))
expect("noseq_clean", bytes(ns), 0, frames_ok=51, checksum_errors=0, _states=50, _lost=[], lost=0)
for i in (10, 30):
    ns[ns_starts[i] + 6] ^= 0x01
expect("noseq_chk", bytes(ns), 1, checksum_errors=2, _states=48, _lost=[1, 1], lost=2, damaged_lost=2)

# 4e. the target restarted during the capture: TCFG again, then records numbered from 0. Not a
# sequence gap of (0 - last - 1) mod 256 "missing" records (it was: 1 error, N % 256 lost)
expect("restart", clean + clean, 0, seq_gaps=0, missing_records=0, lost=0, restarts=1, _states=2 * N, _lost=[])
# ... a damaged last frame before the restart is still one lost record
b = bytearray(clean)
k = starts[N - 1] + 8
b[k] ^= 0x01 if (b[k] ^ 0x01) not in (0x7E, 0x7D) else 0x02
expect("restart_lastchk", bytes(b) + clean, 1, checksum_errors=1, seq_gaps=0, restarts=1, _states=2 * N - 1,
       _lost=[1], lost=1)
# ... and a TCFG followed by a number other than 0 is no restart: the gap is reported
expect("tcfg_gap", clean + clean[: starts[0]] + clean[starts[5]:], 1, seq_gaps=1, missing_records=(5 - N) % 256,
       restarts=0, _states=2 * N - 5)

# 5. a start in mid-frame: the first 40 bytes (TCFG, frame 0 and the start of frame 1) are gone
mid = clean[40:]
first_flag = mid.index(0x7E)
expect("midstart", mid, 1, bytes_before_first_flag=first_flag, seq_gaps=0, tcfg=None, frames=N - 2,
       frames_ok=N - 2, checksum_errors=0, missing_records=0, _states=N - 2, stderr=["before the first flag"])

# 6. the same mid-way stream with the configuration given out of band
cfg = os.path.join(tmp, "rkhcfg.h")
open(cfg, "w").write("#define RKH_CFG_SMA_TRC_SNDR_EN RKH_DISABLED\n#define RKH_CFG_QUE_GET_LWMARK_EN 0\n"
                     "#define RKH_CFG_MP_GET_LWM_EN 0u\n#define RKH_CFGPORT_TRC_SIZEOF_PTR 32\n")
p = os.path.join(tmp, "mid.bin")
open(p, "wb").write(mid)
r = subprocess.run([evtrace, "info", "--json", "--rkh-config", cfg, p], capture_output=True, text=True)
j = json.loads(r.stdout) if r.stdout else {}
if j.get("frames_ok") != N - 2 or j.get("frames") != N - 2 or j.get("checksum_errors") != 0 or j.get("length_errors") != 0:
    fails.append(f"rkh-config: {j.get('frames_ok')} ok frames, {j.get('checksum_errors')} checksum errors")

# 6b. --rkh-config that is not a configuration: /dev/zero (was read forever: a hang), a directory
# and a binary file (were silently an empty configuration): each an error naming it, exit 2
for bad, want in (("/dev/zero", "more than"), (tmp, "cannot read"), (p, "no #define RKH_CFG")):
    try:
        r = subprocess.run([evtrace, "info", "--rkh-config", bad, p], capture_output=True, text=True, timeout=30)
        ok = r.returncode == 2 and want in r.stderr
        msg = f"exit {r.returncode}: {r.stderr.strip()[:160]}"
    except subprocess.TimeoutExpired:
        ok, msg = False, "still reading after 30 s"
    if not ok:
        fails.append(f"--rkh-config {bad}: {msg}")

# 7. garbage never crashes and never claims to be clean
import random
rnd = random.Random(3)
g = bytes(rnd.randrange(256) for _ in range(20000))
p = os.path.join(tmp, "garbage.bin")
open(p, "wb").write(b"\x7e" + g)
r = subprocess.run([evtrace, "check", "--format", "rkh", p], capture_output=True, text=True)
if r.returncode != 1:
    fails.append(f"garbage: check exit {r.returncode}")

import shutil
shutil.rmtree(tmp, True)
if fails:
    print(f"{len(fails)} failures:", file=sys.stderr)
    for f in fails:
        print("  " + f, file=sys.stderr)
    sys.exit(1)
print("rkh damage: all cases reported exactly")

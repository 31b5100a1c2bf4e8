#!/usr/bin/env python3
"""The evtrace command on ThreadX input: exit codes of DESIGN.md §5, help and version, damaged
buffers (each a clear error with its byte offset, never a crash), and a big-endian buffer made by
byte-swapping a real little-endian one field by field (it must decode to the same events)."""
import atexit, json, os, random, shutil, struct, subprocess, sys, tempfile

evtrace, samples = sys.argv[1], sys.argv[2]
REAL = os.path.join(samples, "threadx_real", "nowrap_m32le.trx")
WRAPPED = os.path.join(samples, "threadx_tracex", "demo_threadx.trx")
tmp = tempfile.mkdtemp(prefix="evtrace-cli-")
atexit.register(shutil.rmtree, tmp, True)
fails = []


def run(*args):
    r = subprocess.run([evtrace, *args], capture_output=True, text=True)
    if r.returncode < 0 or "Sanitizer" in r.stderr or "runtime error" in r.stderr:
        fails.append(f"evtrace {' '.join(args)} crashed: rc={r.returncode} {r.stderr[-300:]}")
    return r


def expect(args, code, stderr_has=(), stdout_has=()):
    r = run(*args)
    what = "evtrace " + " ".join(os.path.basename(a) for a in args)
    if r.returncode != code:
        fails.append(f"{what}: exit {r.returncode}, want {code} (stderr: {r.stderr.strip()[:200]})")
    for s in stderr_has:
        if s not in r.stderr:
            fails.append(f"{what}: stderr lacks {s!r}: {r.stderr.strip()[:200]}")
    for s in stdout_has:
        if s not in r.stdout:
            fails.append(f"{what}: stdout lacks {s!r}")
    return r


def write(name, data):
    p = os.path.join(tmp, name)
    open(p, "wb").write(data)
    return p


real = open(REAL, "rb").read()
wrapped = open(WRAPPED, "rb").read()

# usage, help, version
expect(["--version"], 0, stdout_has=["evtrace "])
top = expect(["--help"], 0, stdout_has=["info", "dump", "check", "convert"]).stdout
# every subcommand listed by --help (between "Commands:" and the next blank line) has its own --help
listed = top.split("Commands:", 1)[1].split("\n\n", 1)[0].split("\n")
cmds = [l.split()[0] for l in listed if l.strip()]
if not {"info", "dump", "check", "convert"} <= set(cmds):
    fails.append(f"--help lists commands {cmds}")
for cmd in cmds:
    expect([cmd, "--help"], 0, stdout_has=["usage: evtrace " + cmd])
expect([], 2)
expect(["frobnicate", REAL], 2, stderr_has=["unknown command"])
expect(["info", "--bogus", REAL], 2, stderr_has=["unknown option"])
expect(["info"], 2, stderr_has=["missing FILE"])
expect(["info", "--format", "nope", REAL], 2)
expect(["convert", REAL], 2, stderr_has=["-o"])
expect(["convert", REAL, "-o", os.path.join(tmp, "x.unknownext")], 2)

# clean inputs
for s in [REAL] + [os.path.join(samples, "threadx_tracex", f"demo_{n}.trx")
                  for n in ("threadx", "filex", "netx_tcp", "netx_udp")]:
    expect(["check", s], 0, stdout_has=["OK"])
    expect(["convert", s, "-o", os.path.join(tmp, "out.json")], 0)

# unreadable or unsupported input: exit 3 with a message naming the offset
expect(["info", os.path.join(tmp, "missing.trx")], 3, stderr_has=["cannot open"])
expect(["info", write("empty.trx", b"")], 3, stderr_has=["offset 0"])
rnd = random.Random(7)
expect(["info", write("garbage.bin", bytes(rnd.randrange(256) for _ in range(5000)))], 3,
       stderr_has=["unrecognised format", "offset 0"])
expect(["info", "--format", "threadx", write("noid.trx", b"\0\0\0\0" + real[4:])], 3,
       stderr_has=["no TXTB trace id", "offset 0"])
expect(["info", write("hdr30.trx", real[:30])], 3, stderr_has=["header truncated", "offset 30"])
# a file shorter than the header's buffer end: what it holds decodes, the end is reported (exit 1)
expect(["info", write("reg.trx", real[:1000])], 1, stderr_has=["truncated", "offset 1000"])
expect(["info", write("events.trx", real[:4000])], 1, stderr_has=["truncated", "offset 4000"])
cur_bad = bytearray(real)
struct.pack_into("<I", cur_bad, 32, struct.unpack_from("<I", real, 32)[0] + 4)
expect(["info", write("curmis.trx", bytes(cur_bad))], 3, stderr_has=["current pointer", "offset 32"])
reg_bad = bytearray(real)
struct.pack_into("<I", reg_bad, 20, struct.unpack_from("<I", real, 12)[0] - 48)
expect(["info", write("regend.trx", bytes(reg_bad))], 3, stderr_has=["registry end", "offset 20"])
name_bad = bytearray(real)
struct.pack_into("<H", name_bad, 18, 40000)
expect(["info", write("namesize.trx", bytes(name_bad))], 3, stderr_has=["offset"])

# every interesting truncation point: inside the id, header, registry (entry boundary and mid-entry),
# at the start of the event area, mid-slot, one byte short of the end
# A cut inside the header is fatal (exit 3); a cut after it decodes the registry entries and the
# event slots wholly present and reports the end (exit 1): dump prints exactly those events.
full = [json.loads(l) for l in run("dump", "--json", REAL).stdout.splitlines()]
wfull = [json.loads(l) for l in run("dump", "--json", WRAPPED).stdout.splitlines()]
for cut in (3, 4, 47, 48, 48 + 48 * 5, 48 + 48 * 5 + 17, 1967, 1968, 1968 + 100 * 32 + 5, len(real) - 17):
    path = write(f"cut{cut}.trx", real[:cut])
    if cut < 48:
        expect(["info", "--format", "threadx", path], 3,
               stderr_has=[f"offset {min(cut, 30) if cut < 4 else cut}"] if cut >= 4 else ["offset"])
        continue
    expect(["info", "--format", "threadx", path], 1, stderr_has=["truncated", f"offset {cut}"])
    expect(["check", path], 1, stderr_has=["truncated", f"offset {cut}"])
    r = expect(["dump", "--json", path], 1, stderr_has=[f"offset {cut}"])
    evs = [json.loads(l) for l in r.stdout.splitlines()]
    got = [e for e in evs if e["kind"] != "lost"]
    present = max(0, (cut - 1968) // 32)   # slots 0..present-1 of an unwrapped buffer (445 written)
    want = [e for e in full if e["offset"] + 32 <= cut]
    if got != want or len(got) != min(present, 445):
        fails.append(f"cut{cut}.trx: dump gave {len(got)} events, want the {len(want)} whose slots are in the file")
    # the written slots the file lacks (before the current slot 445) are one lost event at the end
    # (they were not counted at all: lost 0)
    lost = [(i, e["count"], e["offset"]) for i, e in enumerate(evs) if e["kind"] == "lost"]
    want_lost = [(len(evs) - 1, 445 - present, cut)] if present < 445 else []
    if lost != want_lost:
        fails.append(f"cut{cut}.trx: lost events {lost}, want {want_lost}")
    j = json.loads(expect(["info", "--json", path], 1).stdout)
    if j["lost"] != max(0, 445 - present):
        fails.append(f"cut{cut}.trx: info lost {j['lost']}, want {max(0, 445 - present)}")
# the wrapped demo (974 slots at 1584, oldest = current slot 888): cuts before the current slot keep
# slots 0..k-1 (the newest events, in order); a cut after it keeps 888..k-1 then 0..887
for cut in (1584, 1584 + 888 * 32 + 31, 1584 + 900 * 32, len(wrapped) - 17):
    path = write(f"wcut{cut}.trx", wrapped[:cut])
    expect(["check", path], 1, stderr_has=["truncated", f"offset {cut}"])
    evs = [json.loads(l) for l in expect(["dump", "--json", path], 1).stdout.splitlines()]
    got = [e for e in evs if e["kind"] != "lost"]
    k = (cut - 1584) // 32
    # lost: the slots before the current one the file lacks (at the end), or with the current slot
    # present (wrapped) all those past the file, between the last present and slot 0 in time
    lost = [(i, e["count"]) for i, e in enumerate(evs) if e["kind"] == "lost"]
    want_lost = [] if k == 888 else [(len(evs) - 1, 888 - k)] if k < 888 else [(k - 888, 974 - k)]
    if lost != want_lost:
        fails.append(f"wcut{cut}.trx: lost events {lost}, want {want_lost}")
    want = [e for e in wfull if e["offset"] + 32 <= cut]
    if [e["offset"] for e in got] != [e["offset"] for e in want] or len(want) != k:
        fails.append(f"wcut{cut}.trx: dump gave {len(got)} events, want {len(want)} in time order")
    if got and k <= 888 and got[0]["offset"] != 1584:
        fails.append(f"wcut{cut}.trx: the first event should be slot 0 (current slot missing)")
    if k > 888 and got and got[0]["offset"] != 1584 + 888 * 32:
        fails.append(f"wcut{cut}.trx: the first event should be the oldest, slot 888")
# header fields pointing outside the buffer
def patched(name, off, value, fmt="<I"):
    b = bytearray(real)
    struct.pack_into(fmt, b, off, value)
    return write(name, bytes(b))
rbase = struct.unpack_from("<I", real, 8)[0]
expect(["info", patched("regstart.trx", 12, rbase + 10_000_000)], 3, stderr_has=["registry start", "offset 12"])
expect(["info", patched("bufstart.trx", 24, rbase + 48)], 3, stderr_has=["offset 24"])
expect(["info", patched("bufend.trx", 28, rbase + 1968 - 32)], 3, stderr_has=["offset 28"])
expect(["info", patched("bufend2.trx", 28, rbase + 1968 + 33)], 3, stderr_has=["offset 28"])
expect(["info", patched("curout.trx", 32, rbase + len(real) + 64)], 3, stderr_has=["current pointer", "offset 32"])
expect(["info", patched("curreg.trx", 32, rbase + 48)], 3, stderr_has=["current pointer", "offset 32"])
# a timer mask of 0 is a data error at offset 4 (timestamps carry nothing); the events still decode
r = expect(["check", patched("mask0.trx", 4, 0)], 1, stderr_has=["offset 4", "mask"])
r = expect(["dump", "--json", patched("mask0.trx", 4, 0)], 1)
if len(r.stdout.splitlines()) != 445:
    fails.append(f"mask0.trx: {len(r.stdout.splitlines())} events decoded, want 445")
# a mask with low bits clear still unwraps modulo 2^16 and ts only grows
r = expect(["dump", "--json", patched("maskfff0.trx", 4, 0xFFF0)], 0)
ts = [json.loads(l)["ts"] for l in r.stdout.splitlines()]
if ts != sorted(ts) or len(ts) != 445:
    fails.append("maskfff0.trx: ts not monotonic")
# a registry of 0 entries (registry end = start, event area right after it) is valid: the
# registry's 1920 bytes cut out, the slot pointers moved down by as much
b = bytearray(real[:48] + real[1968:])
struct.pack_into("<I", b, 20, rbase + 48)
for off in (24, 28, 32):
    struct.pack_into("<I", b, off, struct.unpack_from("<I", real, off)[0] - 1920)
r = expect(["info", "--json", write("noreg.trx", bytes(b))], 0)
if json.loads(r.stdout)["registry_entries"] != 0 or json.loads(r.stdout)["events"] != 445:
    fails.append("noreg.trx: registry_entries/events wrong")
# registry end moved back without moving the slots: the 1920 bytes between the registry end and
# the slots are a data error at offset 24 (they were passed over in silence, exit 0); the slots
# still decode
b = bytearray(real)
struct.pack_into("<I", b, 20, rbase + 48)
r = expect(["info", "--json", write("reggap.trx", bytes(b))], 1, stderr_has=["offset 24", "1920 bytes"])
if json.loads(r.stdout)["events"] != 445:
    fails.append("reggap.trx: the slots should still decode")

# a buffer that was enabled but never written (no registry, 4 empty slots, big-endian): 0 events
# (word at 16 = reserved1 0 | name size 32)
empty = struct.pack(">12I", 0x54585442, 0xFFFF, 0x1000, 0x1030, 32, 0x1030, 0x1030, 0x1030 + 128,
                    0x1030, 0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC)
empty = empty + bytes(128)
r = expect(["info", "--json", write("noevents.trx", empty)], 0)
j = json.loads(r.stdout or "{}")
if (j.get("events"), j.get("first_timestamp"), j.get("wrapped"), j.get("byte_order"), j.get("capacity"),
        j.get("count_by_id"), j.get("objects")) != (0, None, False, "big", 4, {}, []):
    fails.append(f"noevents.trx: unexpected info {r.stdout[:300]}")
expect(["dump", "--json", write("noevents.trx", empty)], 0)

# data errors found while reading: exit 1, the other events still decode
hole = bytearray(wrapped)
slot = 1584 + 100 * 32
hole[slot:slot + 4] = b"\0\0\0\0"
p = write("hole.trx", bytes(hole))
r = expect(["check", p], 1, stderr_has=[f"offset {slot}", "never written"])
r = expect(["dump", "--json", p], 1)
if len(r.stdout.splitlines()) != 973:
    fails.append(f"hole.trx: {len(r.stdout.splitlines())} events decoded, want 973")
r = expect(["info", "--json", p], 1)
if json.loads(r.stdout)["errors"] != 1:
    fails.append("hole.trx: info errors != 1")
beyond = bytearray(real)
slot = 1968 + 1000 * 32
beyond[slot:slot + 32] = real[1968:2000]
expect(["check", write("beyond.trx", bytes(beyond))], 1, stderr_has=[f"offset {slot}"])

# big-endian: swap every 32-bit word of header, registry and slots (registry bytes 0-3 and names
# are bytes, name size and reserved1 are 16-bit), then the dump must match the little-endian one.
def to_be(le):
    b = bytearray(le)
    (name_size,) = struct.unpack_from("<H", le, 18)
    base, rs, re_, bs, be_ = (struct.unpack_from("<I", le, o)[0] for o in (8, 12, 20, 24, 28))
    def swap32(off):
        struct.pack_into(">I", b, off, struct.unpack_from("<I", le, off)[0])
    for off in (0, 4, 8, 12, 20, 24, 28, 32, 36, 40, 44):
        swap32(off)
    for off in (16, 18):
        struct.pack_into(">H", b, off, struct.unpack_from("<H", le, off)[0])
    for e in range(rs - base, re_ - base, 16 + name_size):
        for off in (4, 8, 12):
            swap32(e + off)
    for s in range(bs - base, be_ - base, 32):
        for off in range(0, 32, 4):
            swap32(s + off)
    return bytes(b)

for src in (REAL, WRAPPED):
    le = open(src, "rb").read()
    bep = write("be_" + os.path.basename(src), to_be(le))
    if open(bep, "rb").read(4) != b"TXTB":
        fails.append("big-endian conversion did not produce TXTB")
    a = run("dump", "--json", src).stdout
    b = run("dump", "--json", bep).stdout
    if a != b or not a:
        fails.append(f"{os.path.basename(src)}: big-endian dump differs from little-endian")
    ia, ib = json.loads(run("info", "--json", src).stdout), json.loads(run("info", "--json", bep).stdout)
    if ib["byte_order"] != "big" or ia["objects"] != ib["objects"] or ia["events"] != ib["events"]:
        fails.append(f"{os.path.basename(src)}: big-endian info differs")

if fails:
    print(f"{len(fails)} failures:", file=sys.stderr)
    for f in fails:
        print("  " + f, file=sys.stderr)
    sys.exit(1)
print("cli threadx: all checks passed")

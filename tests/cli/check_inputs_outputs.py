#!/usr/bin/env python3
"""The CLI without surprises (issue 31, item 5):
1. a FIFO and a <(...) process substitution are read as streams; /dev/null, a directory and a
   block device get their own plain message (never "Is a directory" for a device);
2. ThreadX and XRay piped on stdin decode every event (the stream is buffered for formats that
   need the whole trace); a ThreadX buffer cut short decodes what it holds, from a file and a pipe;
   info gives a stream's size as the bytes read from it (it said 0); --offset drops a stream's
   first bytes as it skips a file's (it was ignored: every byte decoded), and --base-address on a
   stream is a usage error (it was ignored too);
3. the output kind comes from .pftrace/.perfetto-trace/.json/.html/.sqlite/.db/.ctf; a --to that
   disagrees with the extension is warned about;
4. --begin/--end (event index, ticks, time) on every command that reads a trace;
5. help lists exactly what applies: query's 13 tables, no reader options for clickhouse-schema,
   no `synthetic` among the formats, --clock-hz among the common options;
10. a single-valued option given twice with two values is a usage error naming both; the same value
   twice, a repeated flag and a list option (--label) are accepted."""
import json, os, pty, sqlite3, subprocess, sys, tempfile

evtrace, samples = sys.argv[1], sys.argv[2]
TRX = os.path.join(samples, "threadx_real", "nowrap_m32le.trx")
XRAY = os.path.join(samples, "xray", "fdr-v5-small.xray")
tmp = tempfile.mkdtemp(prefix="evtrace-io-")
fails = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)


def run(args, stdin=None):
    return subprocess.run([evtrace] + args, capture_output=True, text=True, timeout=60, cwd=tmp,
                          stdin=open(stdin, "rb") if stdin else subprocess.DEVNULL)


def nevents(path, extra=()):
    r = run(["info", "--json", *extra, path])
    return json.loads(r.stdout)["events"] if r.stdout.strip() else None


N_TRX, N_XRAY = nevents(TRX), nevents(XRAY)

# 1. non-regular inputs
fifo = os.path.join(tmp, "in.fifo")
os.mkfifo(fifo)
p = subprocess.Popen([evtrace, "info", "--json", fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
with open(fifo, "wb") as w:
    w.write(open(TRX, "rb").read())
out, err = p.communicate(timeout=60)
check(p.returncode == 0 and json.loads(out)["events"] == N_TRX, f"a FIFO named as FILE is read as a stream ({err.strip()[:80]})")
# <(...) as bash makes it: a pipe inherited by evtrace, named /dev/fd/N
rfd, wfd = os.pipe()
p = subprocess.Popen([evtrace, "check", f"/dev/fd/{rfd}"], pass_fds=(rfd,), stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
os.close(rfd)
with os.fdopen(wfd, "wb") as w:
    w.write(open(TRX, "rb").read())
out, err = p.communicate(timeout=60)
check(p.returncode == 0 and f"{N_TRX} events" in out, f"<(...) process substitution: {out.strip()[:80]} {err.strip()[:80]}")
r = run(["info", "/dev/null"])
check(r.returncode == 3 and "character device" in r.stderr and "Is a directory" not in r.stderr, f"/dev/null: {r.stderr.strip()}")
r = run(["info", tmp])
check(r.returncode == 3 and "is a directory" in r.stderr, f"a directory: {r.stderr.strip()}")
# ... also followed (--follow, live): a directory was "empty file (offset 0)", and live served a
# page and wrote a 0-byte trace; a terminal was read through its line discipline (CR became LF)
live_out = os.path.join(tmp, "dir_live.trace")
for args in (["dump", "--follow", "--idle-exit", "1", tmp], ["convert", "--follow", "--idle-exit", "1", tmp, "-o", "d.json"],
             ["live", tmp, "-o", live_out, "-q"]):
    try:
        r = subprocess.run([evtrace] + args, capture_output=True, text=True, timeout=10, cwd=tmp, stdin=subprocess.DEVNULL)
        code, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        code, err = None, "still running after 10 s"
    check(code == 3 and "is a directory" in err and not os.path.exists(live_out) and not os.path.exists(os.path.join(tmp, "d.json")),
          f"{args[0]} {args[1]} DIR: exit {code} {err.strip()[:100]}")
pty_m, pty_s = pty.openpty()
for args in (["dump", "--follow", "--idle-exit", "1", os.ttyname(pty_s)], ["live", os.ttyname(pty_s), "-o", live_out, "-q"]):
    try:
        r = subprocess.run([evtrace] + args, capture_output=True, text=True, timeout=10, cwd=tmp, stdin=subprocess.DEVNULL)
        code, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        code, err = None, "still running after 10 s"
    check(code == 3 and "--serial" in err and not os.path.exists(live_out), f"{args[0]} a terminal as FILE: exit {code} {err.strip()[:100]}")
os.close(pty_m)
os.close(pty_s)

# 2. whole-trace formats through a pipe, truncated buffers
for path, n, name in ((TRX, N_TRX, "threadx"), (XRAY, N_XRAY, "xray")):
    r = run(["info", "--json", "-"], stdin=path)
    got = json.loads(r.stdout)["events"] if r.returncode == 0 else None
    check(got == n, f"{name} on stdin: {got}/{n} events ({r.stderr.strip()[:100]})")
RKH = os.path.join(samples, "rkh", "blinky_stock.bin")  # read as it streams, never buffered whole
for args in (["info", "--json", "-"], ["info", "-"]):
    p = subprocess.Popen([evtrace] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=False)
    out, err = p.communicate(open(RKH, "rb").read(), timeout=60)
    out, size = out.decode(), os.path.getsize(RKH)
    got = json.loads(out)["size"] if args[1] == "--json" and p.returncode == 0 else out.splitlines()[0] if out else ""
    want = size if args[1] == "--json" else f"file:     - ({size} bytes, read from a stream)"
    check(p.returncode == 0 and got == want, f"{' '.join(args)} on an RKH pipe: size {got!r}, want {want!r}")
def piped(args, data):
    p = subprocess.Popen([evtrace] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp)
    out, err = p.communicate(data, timeout=60)
    return p.returncode, out.decode(), err.decode()


junk = bytes(range(1, 101))  # 100 bytes before the trace: no flag, no TXTB magic among them
for path, name in ((RKH, "rkh"), (TRX, "threadx"), (XRAY, "xray")):
    padded = os.path.join(tmp, "padded." + name)
    open(padded, "wb").write(junk + open(path, "rb").read())
    f = run(["info", "--json", "--offset", "100", padded])
    code, out, err = piped(["info", "--json", "--offset", "100", "-"], junk + open(path, "rb").read())
    a, b = json.loads(f.stdout) if f.stdout.strip() else {}, json.loads(out) if out.strip() else {}
    a.pop("file", None); b.pop("file", None)
    check(f.returncode == code == 0 and a == b and b.get("file_offset") == 100 and b.get("size") == os.path.getsize(path),
          f"--offset 100 on a {name} pipe: as on the file ({b.get('events')} events, size {b.get('size')}, exit {code}) {err.strip()[:100]}")
    f = run(["dump", "--json", path])
    code, out, err = piped(["dump", "--json", "--offset", "100", "-"], junk + open(path, "rb").read())
    check(code == 0 and out == f.stdout and out, f"dump --offset 100 on a {name} pipe: every event of the trace, as from the file")
code, out, err = piped(["info", "--offset", "349", "-"], open(RKH, "rb").read())
check(code == 2 and "--offset 349 is at or past the end of the stream (349 bytes)" in err, f"--offset at a stream's end: exit {code} {err.strip()[:120]}")
code, out, err = piped(["info", "--offset", "5000", "-"], open(RKH, "rb").read())
check(code == 2 and "--offset 5000 is at or past the end of the stream (349 bytes)" in err, f"--offset past a stream's end: exit {code} {err.strip()[:120]}")
code, out, err = piped(["check", "--base-address", "0x20000000", "-"], open(RKH, "rb").read())
check(code == 2 and "--base-address applies to an Intel HEX or S-record dump file, not to a stream" in err,
      f"--base-address on a stream: exit {code} {err.strip()[:120]}")
data = open(TRX, "rb").read()
cut = os.path.join(tmp, "cut.trx")
open(cut, "wb").write(data[:3000])  # the registry and the first records only
r = run(["info", "--json", cut])
kept = json.loads(r.stdout)["events"] if r.stdout.strip() else 0
check(r.returncode == 1 and 0 < kept < N_TRX and "truncated" in r.stderr, f"truncated ThreadX file: {kept} events kept, exit {r.returncode}")
r = run(["info", "--json", "-"], stdin=cut)
kept2 = json.loads(r.stdout)["events"] if r.stdout.strip() else 0
check(kept2 == kept, f"truncated ThreadX on stdin: {kept2} events, as from the file")

# 3. output kinds
kinds = {"a.pftrace": "perfetto", "a.perfetto-trace": "perfetto", "a.json": "chrome", "a.html": "report",
         "a.sqlite": "sqlite", "a.db": "sqlite", "a.ctf": "ctf"}
for out, kind in kinds.items():
    r = run(["convert", TRX, "-o", out])
    path = os.path.join(tmp, out)
    ok = r.returncode == 0 and os.path.exists(path)
    if ok and kind == "perfetto":
        ok = open(path, "rb").read(1) == b"\x0a"
    elif ok and kind == "chrome":
        ok = isinstance(json.load(open(path)), (dict, list))
    elif ok and kind == "report":
        ok = open(path, "rb").read(200).lstrip().lower().startswith(b"<!doctype html")
    elif ok and kind == "sqlite":
        ok = sqlite3.connect(path).execute("SELECT count(*) FROM events").fetchone()[0] == N_TRX
    elif ok and kind == "ctf":
        ok = os.path.isfile(os.path.join(path, "metadata"))
    check(ok, f"-o {out} writes {kind} ({r.stderr.strip()[:100]})")
r = run(["convert", TRX, "-o", "x.json", "--to", "perfetto"])
check(r.returncode == 0 and "warning" in r.stderr and "x.json" in r.stderr and "chrome" in r.stderr,
      f"--to perfetto into x.json is warned about: {r.stderr.strip()[:140]}")
r = run(["convert", TRX, "-o", "y.pftrace", "--to", "perfetto"])
check(r.returncode == 0 and "warning" not in r.stderr, "no warning when --to and the extension agree")
r = run(["convert", TRX, "-o", "z.json", "--to", "bogus"])
check(r.returncode == 2 and "unknown output kind 'bogus'" in r.stderr and "as asked" not in r.stderr
      and not os.path.exists(os.path.join(tmp, "z.json")),
      f"an unknown --to is an error only, not also 'writing bogus as asked': {r.stderr.strip()[:140]}")

# 4. --begin/--end everywhere a trace is read
dump = [json.loads(l) for l in run(["dump", "--json", TRX]).stdout.splitlines()]
part = [json.loads(l) for l in run(["dump", "--json", "--begin", "#10", "--end", "#19", TRX]).stdout.splitlines()]
check(part == dump[10:20], f"dump --begin #10 --end #19: {len(part)} events, the 10 expected")
t0, t1 = dump[100]["ts"], dump[200]["ts"]
part = [json.loads(l) for l in run(["dump", "--json", "--begin", str(t0), "--end", str(t1), TRX]).stdout.splitlines()]
check(part == [e for e in dump if t0 <= e["ts"] <= t1], f"dump --begin/--end in ticks: {len(part)} events")
r = run(["dump", "--begin", "1ms", TRX])
check(r.returncode == 1 and "clock rate is unknown" in r.stderr, "a time bound without a clock is refused plainly")
r = run(["dump", "--json", "--clock-hz", "1000", "--begin", f"{t0}ms", "--end", f"{t1}ms", TRX])  # 1 tick = 1 ms
ev = [json.loads(l) for l in r.stdout.splitlines()]
check(r.returncode == 0 and ev and [e["ts"] for e in ev] == [e["ts"] for e in dump if t0 <= e["ts"] <= t1],
      f"--begin {t0}ms --end {t1}ms with --clock-hz 1000: {len(ev)} events")
for cmd in (["info", "--json"], ["stats", "--json"], ["check"], ["query", "-q"], ["convert", "-o", "r.json"], ["report", "-o", "r.html"]):
    args = cmd[:1] + ["--begin", "#0", "--end", "#9"] + cmd[1:] + [TRX]
    if cmd[0] == "query":
        args.append("SELECT count(*) AS n FROM events")
    r = run(args)
    ok = r.returncode == 0
    if cmd[0] == "info":
        ok = ok and json.loads(r.stdout)["events"] == 10
    elif cmd[0] == "stats":
        ok = ok and json.loads(r.stdout)["events"] == 10
    elif cmd[0] == "check":
        ok = ok and " 10 events" in r.stdout
    elif cmd[0] == "query":
        ok = ok and r.stdout.split() == ["n", "10"]
    check(ok, f"{cmd[0]} takes --begin/--end ({r.stdout.strip()[:60]!r} {r.stderr.strip()[:80]})")
r = run(["dump", "--begin", "#5", "--end", "#4", TRX])
check(r.returncode == 2, "--begin after --end is a usage error")

# 5. help
h = run(["query", "--help"]).stdout
tables = ["meta", "lost", "spans", "traces", "contexts", "objects", "events", "thread_states", "slices", "isrs",
          "counters", "flows", "losses"]
check(all(t in h for t in tables), "query --help lists its 13 tables")
h = run(["clickhouse-schema", "--help"]).stdout
check("--rkh-config" not in h and "--instr-map" not in h and "--format" not in h and "--clock-hz" not in h,
      "clickhouse-schema --help offers no reader options")
h = run(["--help"]).stdout
check("synthetic" not in h, "synthetic is not listed among the formats")
common = h.split("Common options:")[1].split("\n\n")[0] if "Common options:" in h else ""
check("--clock-hz" in common and "--begin" in common, "--clock-hz and --begin are among the common options")

# 6. a server's text reaches the terminal escaped (issue 31 item 2): an HTTP 500 whose body holds
# ESC, BEL, CR and a forged line
import socket, threading
ls = socket.socket()
ls.bind(("127.0.0.1", 0))
ls.listen(4)
body = b"Code: 1. \x1b]0;pwned\x07\x1b[2J\rforged\nevtrace: all good\n"


def hostile():
    ls.settimeout(10)
    try:
        while True:
            c, _ = ls.accept()
            c.settimeout(2)
            try:
                c.recv(65536)
            except OSError:
                pass
            c.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            c.close()
    except OSError:
        pass


threading.Thread(target=hostile, daemon=True).start()
r = run(["convert", TRX, "--to", "clickhouse", "-o", f"http://127.0.0.1:{ls.getsockname()[1]}/?database=evtrace"])
ls.close()
raw = [c for c in r.stderr if (ord(c) < 0x20 and c != "\n") or ord(c) == 0x7f]
check(r.returncode == 3 and not raw and "\\x1b]0;pwned\\x07" in r.stderr and "forged\\n" in r.stderr,
      f"a server's error text is escaped: exit {r.returncode}, raw control bytes {raw}, {r.stderr.strip()[:160]!r}")

# 7. -o naming the input itself (same path, a hard link, the reader's --instr-map) is refused with
# exit 2 and the input left intact: the rename would otherwise replace the trace being read
src = os.path.join(tmp, "same.trx")
open(src, "wb").write(open(TRX, "rb").read())
os.link(src, os.path.join(tmp, "same_link.trx"))
for args in (["convert", src, "-o", src, "--to", "chrome"], ["report", src, "-o", src],
             ["convert", src, "-o", os.path.join(tmp, "same_link.trx"), "--to", "perfetto"],
             ["convert", XRAY, "--instr-map", src, "-o", src, "--to", "chrome"]):
    r = run(args)
    check(r.returncode == 2 and "is the input" in r.stderr and open(src, "rb").read() == open(TRX, "rb").read()
          and not [f for f in os.listdir(tmp) if ".tmp-" in f],
          f"-o the input itself is refused, input intact: {' '.join(args[:1] + args[2:])}: exit {r.returncode} {r.stderr.strip()[:100]}")

# ... nor a directory holding the input (or --instr-map), --force or not: replacing it removed the
# input with everything else in it (an evtrace CTF directory, marked as its own, without --force)
holder = os.path.join(tmp, "holder")
os.makedirs(os.path.join(holder, "sub"))
held = os.path.join(holder, "sub", "held.trx")
open(held, "wb").write(open(TRX, "rb").read())
ctfdir = os.path.join(tmp, "old.ctf")
r = run(["convert", TRX, "-o", ctfdir, "--to", "ctf"])
check(r.returncode == 0 and os.path.isdir(ctfdir), f"a CTF directory to hold an input: exit {r.returncode}")
held2 = os.path.join(ctfdir, "held.trx")
open(held2, "wb").write(open(TRX, "rb").read())
for args in (["convert", held, "-o", holder, "--to", "chrome", "--force"],
             ["report", held, "-o", os.path.join(holder, "sub"), "--force"],
             ["convert", XRAY, "--instr-map", held, "-o", holder, "--to", "perfetto", "--force"],
             ["convert", held2, "-o", ctfdir, "--to", "ctf"]):
    r = run(args)
    check(r.returncode == 2 and "holding the input" in r.stderr and os.path.exists(held) and os.path.exists(held2)
          and os.path.isdir(holder),
          f"-o a directory holding the input is refused: {' '.join(args[:1] + args[2:])}: exit {r.returncode} {r.stderr.strip()[:100]}")

# ... and by live, --force or not (it followed FILE and, at Ctrl-C, renamed its copy over it: a
# writer still appending went on into the unlinked file); also its --rkh-config
ino = os.stat(src).st_ino
for args in (["live", src, "-o", src, "--force", "-q"], ["live", src, "-o", src, "-q"],
             ["live", TRX, "--format", "rkh", "--rkh-config", src, "-o", src, "--force", "-q"]):
    try:
        r = subprocess.run([evtrace] + args, capture_output=True, text=True, timeout=10, cwd=tmp,
                           stdin=subprocess.DEVNULL)
        code, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        code, err = None, "still serving after 10 s"
    check(code == 2 and "is the input" in err and os.stat(src).st_ino == ino
          and open(src, "rb").read() == open(TRX, "rb").read() and not [f for f in os.listdir(tmp) if ".part" in f],
          f"live -o the input itself is refused, input intact: {' '.join(args[:1] + args[2:])}: exit {code} {err.strip()[:100]}")

# ... and live whose input never opens leaves an OUT given with --force as it was (it was renamed
# over with an empty recording, then removed: the old file gone), and creates none otherwise
old_out = os.path.join(tmp, "old_live.trace")
open(old_out, "w").write("old")
for args in (["live", os.path.join(tmp, "missing.rkh"), "-o", old_out, "--force", "-q"],
             ["live", os.path.join(tmp, "missing.rkh"), "-o", os.path.join(tmp, "new_live.trace"), "-q"]):
    try:
        r = subprocess.run([evtrace] + args, capture_output=True, text=True, timeout=10, cwd=tmp, stdin=subprocess.DEVNULL)
        code, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        code, err = None, "still running after 10 s"
    check(code == 3 and "missing.rkh: cannot open" in err and open(old_out).read() == "old"
          and not os.path.exists(os.path.join(tmp, "new_live.trace")) and not [f for f in os.listdir(tmp) if ".part" in f],
          f"live on an input that does not open leaves OUT as it was: {' '.join(args[3:])}: exit {code} {err.strip()[:100]}")

# 7b. a reader option the reader of FILE does not have is ignored, and said so (it was silent:
# --instr-map naming a missing file on a ThreadX trace, exit 0, no word); the reader's own is used
r = run(["info", "--instr-map", os.path.join(tmp, "no-such-map.yaml"), TRX])
check(r.returncode == 0 and "warning: --instr-map is not an option of the threadx reader" in r.stderr,
      f"--instr-map on a ThreadX trace is said to be ignored: exit {r.returncode} {r.stderr.strip()[:120]}")
r = run(["info", "--instr-map", os.path.join(tmp, "no-such-map.yaml"), XRAY])
check(r.returncode == 2 and "warning" not in r.stderr and "no-such-map.yaml" in r.stderr,
      f"--instr-map on an XRay trace is read: exit {r.returncode} {r.stderr.strip()[:120]}")

# 8. an OUT whose name is legal but too long for the ".tmp-PID-N" suffix (NAME_MAX 255): the
# temporary name is shortened, not refused with "File name too long"
longdir = os.path.join(tmp, "long")
os.mkdir(longdir)
for ext, kind in ((".json", "chrome"), (".ctf", "ctf"), (".sqlite", "sqlite")):
    out = os.path.join(longdir, "n" * (250 - len(ext)) + ext)
    r = run(["convert", TRX, "-o", out, "--to", kind])
    check(r.returncode == 0 and os.path.exists(out) and [f for f in os.listdir(longdir) if ".tmp-" in f] == [],
          f"a 250-byte OUT name ({kind}) is written: exit {r.returncode} {r.stderr.strip()[-100:]}")

# 8b. a file output named as a directory (a trailing '/') is refused before the conversion runs
# (it used to convert everything, then fail at the rename); a directory output (CTF) takes one
for cmd, extra in (("convert", ["--to", "chrome"]), ("report", [])):
    out = os.path.join(tmp, "as-dir.out") + "/"
    r = run([cmd, TRX, "-o", out] + extra)
    check(r.returncode == 2 and "give a file name" in r.stderr and not os.path.exists(out.rstrip("/")),
          f"{cmd} -o DIR/ for a file output: exit {r.returncode} {r.stderr.strip()[:100]}")
ctfslash = os.path.join(tmp, "ctf-slash") + "/"
r = run(["convert", TRX, "-o", ctfslash, "--to", "ctf"])
check(r.returncode == 0 and os.path.isdir(ctfslash), f"convert --to ctf -o DIR/: exit {r.returncode}")

# 9. --json when the input cannot be opened (empty, missing, a directory, not the forced format):
# still one JSON object with the contract's keys (it printed nothing), the reason in `fatal`,
# exit 3 as before
empty = os.path.join(tmp, "empty.bin")
open(empty, "wb").close()
for args in (["info", "--json", empty], ["stats", "--json", empty], ["info", "--json", os.path.join(tmp, "missing")],
             ["info", "--json", tmp], ["stats", "--json", "--format", "xray", TRX]):
    r = run(args)
    try:
        j = json.loads(r.stdout)
        ok = (r.returncode == 3 and j["format"] is None and j["events"] == 0 and j["errors"] == 1 and
              "lost" in j and j["fatal"] and j["fatal"] in r.stderr)
    except (ValueError, KeyError, TypeError):
        ok = False
    check(ok, f"{' '.join(args[:2])} on an unreadable input: JSON with fatal, exit 3: exit {r.returncode} stdout {r.stdout[:120]!r}")

# 10. a single-valued option given twice with two values is a usage error naming both (the last
# one won, silently), before anything is read or written: no output made, an old one untouched;
# the same value twice and a repeated flag are harmless; a list option (--label) keeps working
old = os.path.join(tmp, "rep-old.json")
open(old, "w").write("old")
for args, msg in ((["convert", TRX, "--to", "perfetto", "--to", "ctf", "-o", "rep.out"], "--to given twice (perfetto, ctf)"),
                  (["convert", TRX, "-o", "rep-a.json", "-o", old, "--force"], f"--output given twice (rep-a.json, {old})"),
                  (["report", TRX, "--output=rep-a.html", "-o", "rep-b.html"], "--output given twice (rep-a.html, rep-b.html)"),
                  (["dump", "--begin", "1", "--begin", "2", TRX], "--begin given twice (1, 2)"),
                  (["info", XRAY, "--instr-map", "a.yaml", "--instr-map", "b.yaml"], "--instr-map given twice (a.yaml, b.yaml)")):
    r = run(args)
    check(r.returncode == 2 and r.stderr == f"evtrace {args[0]}: {msg}\n" and r.stdout == "" and open(old).read() == "old"
          and not [f for f in os.listdir(tmp) if f.startswith("rep") and f != "rep-old.json"],
          f"{' '.join(w for w in args if w not in (TRX, XRAY))}: exit {r.returncode} {r.stderr.strip()[:100]}")
# --json: as every usage error (an unknown --kernel here): the message on stderr, nothing on stdout
ref = run(["info", "--json", "--kernel", "bogus", TRX])
r = run(["info", "--json", "--clock-hz", "1000", "--clock-hz", "2000", TRX])
check(r.returncode == ref.returncode == 2 and r.stdout == ref.stdout == ""
      and r.stderr == "evtrace info: --clock-hz given twice (1000, 2000)\n" and ref.stderr.startswith("evtrace info: "),
      f"info --json --clock-hz twice: a usage error as the others: exit {r.returncode} stdout {r.stdout[:60]!r} {r.stderr.strip()[:100]}")
r = run(["convert", TRX, "--to", "chrome", "--to=chrome", "-o", "rep-same.json", "-orep-same.json", "-q", "--quiet"])
check(r.returncode == 0 and isinstance(json.load(open(os.path.join(tmp, "rep-same.json"))), (dict, list)),
      f"the same --to and -o twice, -q twice: converted, exit {r.returncode} {r.stderr.strip()[:100]}")
r = run(["info", "--json", "--json", "--clock-hz", "1000", "--clock-hz=1000", TRX])
check(r.returncode == 0 and json.loads(r.stdout)["clock_hz"] == 1000, f"--json and --clock-hz 1000 twice: exit {r.returncode}")
closed = socket.socket()  # bound, not listening: the connection is refused
closed.bind(("127.0.0.1", 0))
r = run(["convert", TRX, "--to", "clickhouse", "-o", f"http://127.0.0.1:{closed.getsockname()[1]}/?database=evtrace",
         "--label", "board=b7", "--label", "board=b8", "--label", "fw=6.4", "-q"])
closed.close()
check(r.returncode == 3 and "cannot connect" in r.stderr and "twice" not in r.stderr,
      f"--label three times: accepted, the load tried (exit 3: no server): {r.stderr.strip()[:120]}")

import shutil
shutil.rmtree(tmp, True)
if fails:
    print(f"{len(fails)} check(s) failed", file=sys.stderr)
    sys.exit(1)
print("inputs and outputs: as documented")

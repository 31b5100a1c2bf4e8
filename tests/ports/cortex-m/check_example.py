#!/usr/bin/env python3
"""The Cortex-M example under QEMU (mps2-an386), the three ways off the target, each decoded by
evtrace and checked against what the firmware says it recorded (its "APP-STATS" line):
1. snapshot: QEMU halted at reset with its gdbstub on 127.0.0.1, scripts/evtrace-gdb-dump runs
   it to app_trace_done and dumps evt_trace_buffer by symbol as .bin, .hex and .srec; the three
   decode identically, and the TXTB events match the firmware's counts;
2. live: the firmware streams RKH records on UART0 = QEMU -serial tcp:127.0.0.1:PORT into
   `evtrace dump --json --listen 127.0.0.1:PORT` (lines timed as they arrive) and into
   `evtrace convert --listen ... -o live.json`; and QEMU -serial pipe (a FIFO) into
   `evtrace dump --follow`, which ends when QEMU exits;
3. record-to-screen latency: from the live run (host arrival vs firmware timestamp, relative to
   the fastest record) and a host loopback (one RKH frame at a time into --listen).
Usage: check_example.py WORK_DIR EVTRACE SOURCE_DIR"""
import json, os, re, socket, statistics, subprocess, sys, threading, time

work, evtrace, srcdir = sys.argv[1:4]
snap_elf, live_elf = os.path.join(work, "app_snapshot.elf"), os.path.join(work, "app_live.elf")
QEMU = ["qemu-system-arm", "-M", "mps2-an386", "-cpu", "cortex-m4", "-nographic", "-monitor", "none"]
CPU_HZ = 25_000_000
fails = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        fails.append(what)
    return ok


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def semihosting(path):
    chardev = ["-chardev", f"file,id=sh0,path={path}", "-semihosting-config", "enable=on,target=native,chardev=sh0"]
    return chardev


def app_stats(path):
    text = open(path).read() if os.path.exists(path) else ""
    m = re.search(r"APP-STATS (.*)", text)
    if not m:
        return None
    return {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}


def dump_json(path):
    r = subprocess.run([evtrace, "dump", "--json", path], capture_output=True, text=True, timeout=60)
    return r.returncode, [json.loads(l) for l in r.stdout.splitlines()], r.stderr


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


# ---- 1. snapshot over GDB --------------------------------------------------------------------
port = free_port()
sh = os.path.join(work, "snap.semihost")
# -icount: virtual time from the instruction count, so the run (and its SysTick count) does not
# depend on how loaded the host is; the live runs below keep real time for the latency figures.
qemu = subprocess.Popen(QEMU + ["-icount", "shift=4,sleep=off", "-serial", "null", "-gdb", f"tcp:127.0.0.1:{port}", "-S"] +
                        semihosting(sh) +
                        ["-kernel", snap_elf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
time.sleep(0.3)
base = os.path.join(work, "snap")
g = subprocess.run(["bash", os.path.join(srcdir, "scripts", "evtrace-gdb-dump"), "--remote", f"127.0.0.1:{port}",
                    "--break", "app_trace_done", "--ihex", "--srec", "--detach", "--evtrace", evtrace,
                    "--timeout", "60", snap_elf, base], capture_output=True, text=True, timeout=90)
print(g.stdout.strip())
check(g.returncode == 0, f"evtrace-gdb-dump: exit {g.returncode} {g.stderr.strip()[-300:]}")
try:
    qrc = qemu.wait(timeout=60)
except subprocess.TimeoutExpired:
    qemu.kill(); qemu.wait(); qrc = -1
st = app_stats(sh)
check(qrc == 0 and st is not None, f"snapshot firmware ran to the end under QEMU (exit {qrc}): {st}")
dumps = {}
for ext in ("bin", "hex", "srec"):
    rc, ev, err = dump_json(f"{base}.{ext}")
    check(rc == 0 and ev, f"snap.{ext}: evtrace dump exit {rc}, {len(ev)} events {err.strip()[:200]}")
    dumps[ext] = ev
check(dumps["bin"] == dumps["hex"] == dumps["srec"], "snapshot: .bin, .hex and .srec decode identically")
ev = dumps["bin"]
if st and ev:
    runs = {n: sum(1 for e in ev if e["name"] == "THREAD_RESUME" and e.get("ctx_name") == n) for n in ("sensor", "control", "logger")}
    check(runs == {"sensor": st["sensor"], "control": st["control"], "logger": st["logger"]},
          f"snapshot: task switches per task {runs} = firmware runs")
    outs = sum(1 for e in ev if e["name"] == "THREAD_SUSPEND")
    check(outs == sum(runs.values()), f"snapshot: {outs} switch-outs = switch-ins")
    users = [e for e in ev if e["kind"] == "user" and 4097 <= e["id"] <= 4099]
    check(len(users) == st["user"] and sum(e["args"][1] for e in users) & 0xFFFFFFFF == st["value_sum"],
          f"snapshot: {len(users)} hook user events, value sum matches the firmware's {st['value_sum']}")
    samples = [e for e in ev if e["id"] == 4200]
    check(len(samples) == st["samples"] and all(e["args"][0] == 3 for e in samples),
          f"snapshot: {len(samples)} app sample events (TXTB user event 4200)")
    ent = sum(1 for e in ev if e["kind"] == "isr_enter")
    ext = sum(1 for e in ev if e["kind"] == "isr_exit")
    check(ent == ext and st["ticks"] <= ent <= st["isr_window"],
          f"snapshot: {ent} SysTick ISR enter/exit pairs (firmware: {st['ticks']} while scheduling, "
          f"{st['isr_window']} from just before start to just after stop)")
    ts = [e["ts"] for e in ev]
    check(all(b >= a for a, b in zip(ts, ts[1:])), "snapshot: timestamps never go back (SysTick time source)")
    check(st["lost"] == 0 and not any(e["kind"] == "lost" for e in ev), "snapshot: nothing lost")


# ---- 2. live over the UART -------------------------------------------------------------------
def live_run(cmd_tail, sh_path):
    """Start evtrace with --listen, then the live firmware on -serial tcp; returns
    (evtrace exit, [(arrival, line)], stderr, firmware stats)."""
    port = free_port()
    p = subprocess.Popen([evtrace] + cmd_tail(port), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines, errs = [], []
    ready = threading.Event()

    def read_err():
        for l in p.stderr:
            errs.append(l)
            if "listening on" in l:
                ready.set()
    def read_out():
        for l in p.stdout:
            lines.append((time.monotonic(), l))
    te, to = threading.Thread(target=read_err), threading.Thread(target=read_out)
    te.start(); to.start()
    ready.wait(10)
    q = subprocess.Popen(QEMU + ["-serial", f"tcp:127.0.0.1:{port}"] + semihosting(sh_path) + ["-kernel", live_elf],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        qrc = q.wait(timeout=60)
    except subprocess.TimeoutExpired:
        q.kill(); q.wait(); qrc = -1
    try:
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill(); p.wait(); rc = -1
    te.join(5); to.join(5)
    check(qrc == 0, f"live firmware ran to the end under QEMU (exit {qrc})")
    return rc, lines, "".join(errs), app_stats(sh_path)


rc, lines, err, st = live_run(lambda port: ["dump", "--json", "--listen", f"127.0.0.1:{port}", "--idle-exit", "30"],
                              os.path.join(work, "live.semihost"))
ev = [json.loads(l) for _, l in lines]
check(rc == 0 and ev and st, f"live dump --listen: exit {rc}, {len(ev)} events decoded as they arrived {err.strip()[-200:]}")
if ev and st:
    def uev(name):
        return [e for e in ev if e.get("fields", {}).get("user_event") == name]
    names = {}
    for e in ev:
        if e.get("fields", {}).get("user_event") == "hook.obj_create":
            names[e["args"][1]] = e["fields"].get("f1_OBJ_name")
    runs = {}
    for e in uev("hook.thread_in"):
        n = e["fields"].get("f0_OBJ_name")
        runs[n] = runs.get(n, 0) + 1
    check(runs == {"sensor": st["sensor"], "control": st["control"], "logger": st["logger"]},
          f"live: hook.thread_in per task {runs} = firmware runs (names from FWK_OBJ records)")
    check(len(uev("hook.thread_out")) == sum(runs.values()), "live: every switch-in has its switch-out")
    check(all(e["kind"] == "thread_run" and e.get("ctx_name") == e["fields"].get("f0_OBJ_name") for e in uev("hook.thread_in"))
          and all(e["kind"] == "thread_stop" for e in uev("hook.thread_out"))
          and all(e["kind"] == "isr_enter" and e.get("ctx_name") == "ISR" for e in uev("hook.isr_enter"))
          and all(e.get("ctx_name") in ("sensor", "control", "logger") for e in uev("hook.user")),
          "live: hook records carry canonical kinds (thread_run/stop, isr_enter) and the running task as context")
    users = uev("hook.user")
    check(len(users) == st["user"] and sum(e["args"][2] for e in users) & 0xFFFFFFFF == st["value_sum"],
          f"live: {len(users)} hook.user records, value sum = firmware's {st['value_sum']}")
    samples = uev("app.sample")
    check(len(samples) == st["samples"], f"live: {len(samples)} app.sample records (the application's own RKH records)")
    ent, ext = len(uev("hook.isr_enter")), len(uev("hook.isr_exit"))
    check(ent == ext and st["ticks"] <= ent <= st["isr_window"],
          f"live: {ent} SysTick ISR enter/exit pairs (firmware: {st['ticks']} while scheduling, "
          f"{st['isr_window']} from just before start to just after stop)")
    seqs = [e["seq"] for e in ev if "seq" in e]
    check(all((b - a) % 256 == 1 for a, b in zip(seqs, seqs[1:])) and not any(e["kind"] == "lost" for e in ev),
          f"live: {len(seqs)} sequence numbers without a gap, nothing lost")
    # record-to-screen latency relative to the fastest record: arrival - firmware time
    d = [t - e["ts"] / CPU_HZ for (t, _), e in zip(lines, ev) if e.get("fields", {}).get("user_event", "").startswith("hook.")]
    if len(d) > 40:
        m = min(d)
        lat = [(x - m) * 1000 for x in d]
        steady = lat[20:]  # past the stream's head (what the format probe waits for at the start)
        print(f"LATENCY live UART (QEMU -serial tcp -> evtrace dump --listen), host arrival minus firmware time, "
              f"relative to the earliest; includes QEMU's virtual-clock drift against the host clock, so an "
              f"upper bound, not evtrace's own latency; {len(lat)} records: all p50 {pct(lat, 50):.2f} ms, p99 {pct(lat, 99):.2f} ms, "
              f"max {max(lat):.2f} ms; after the first 20: p50 {pct(steady, 50):.2f} ms, p99 {pct(steady, 99):.2f} ms, "
              f"max {max(steady):.2f} ms")

rc, lines, err, st = live_run(lambda port: ["convert", "--listen", f"127.0.0.1:{port}", "--idle-exit", "30", "-o",
                                            os.path.join(work, "live.json")], os.path.join(work, "live2.semihost"))
try:
    doc = json.load(open(os.path.join(work, "live.json")))
    n = len(doc["traceEvents"] if isinstance(doc, dict) else doc)
except (OSError, ValueError, KeyError) as e:
    n, doc = 0, None
check(rc == 0 and n > 0 and "wrote" in err, f"live convert --listen -o live.json: exit {rc}, {n} trace events "
                                            f"{err.strip()[-160:]}")

# QEMU's -serial pipe:BASE writes the UART to the FIFO BASE.out: `dump --follow` on it must decode
# as it arrives and end by itself when QEMU (the writer) exits.
base = os.path.join(work, "uart")
for suffix in (".in", ".out"):
    if os.path.exists(base + suffix):
        os.unlink(base + suffix)
    os.mkfifo(base + suffix)
p = subprocess.Popen([evtrace, "dump", "--json", "--follow", base + ".out"], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
time.sleep(0.2)
sh3 = os.path.join(work, "live3.semihost")
q = subprocess.run(QEMU + ["-icount", "shift=4,sleep=off", "-serial", f"pipe:{base}"] + semihosting(sh3) +
                   ["-kernel", live_elf], capture_output=True, text=True, timeout=60)
try:
    out, err = p.communicate(timeout=20)
    ev = [json.loads(l) for l in out.splitlines()]
    st = app_stats(sh3)
    runs = sum(1 for e in ev if e.get("fields", {}).get("user_event") == "hook.thread_in")
    check(q.returncode == 0 and p.returncode == 0 and st is not None and
          runs == st["sensor"] + st["control"] + st["logger"],
          f"live --follow on QEMU's -serial pipe (FIFO): {len(ev)} events, {runs} task switches, ended with "
          f"the writer (exit {p.returncode})")
except subprocess.TimeoutExpired:
    p.kill(); p.communicate()
    check(False, "live --follow on a FIFO did not end when QEMU closed it")

# ---- 3. host loopback latency: one RKH frame at a time -----------------------------------------
sample = open(os.path.join(srcdir, "tests", "data", "rkh", "usr_events.bin"), "rb").read()
frames, cur = [], bytearray()
for b in sample:  # split after each flag byte (0x7e ends a frame)
    cur.append(b)
    if b == 0x7E:
        frames.append(bytes(cur)); cur = bytearray()
if cur:
    frames.append(bytes(cur))
port = free_port()
p = subprocess.Popen([evtrace, "dump", "--json", "--listen", f"127.0.0.1:{port}", "--idle-exit", "20"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
conn = None
for _ in range(100):
    try:
        conn = socket.create_connection(("127.0.0.1", port), timeout=2); break
    except OSError:
        time.sleep(0.05)
lat = []
if check(conn is not None, "loopback: connected to evtrace --listen"):
    conn.sendall(frames[0] + frames[1])  # the stream's head (TCFG) first: the probe needs it
    first = p.stdout.readline()
    for f in frames[2:]:
        t0 = time.monotonic()
        conn.sendall(f)
        line = p.stdout.readline()
        if not line:
            break
        lat.append((time.monotonic() - t0) * 1000)
        time.sleep(0.02)
    conn.close()
    p.communicate(timeout=20)
    if check(len(lat) >= 10, f"loopback: {len(lat)} frames timed one at a time"):
        print(f"LATENCY host loopback (one RKH frame written to the socket -> its JSON line read), {len(lat)} frames: "
              f"p50 {pct(lat, 50):.3f} ms, p99 {pct(lat, 99):.3f} ms, max {max(lat):.3f} ms")
else:
    p.kill(); p.communicate()

if fails:
    print(f"{len(fails)} check(s) failed", file=sys.stderr)
    sys.exit(1)
print("cortex-m example: snapshot (GDB: bin/hex/srec) and live (UART: dump, convert) decoded and checked")

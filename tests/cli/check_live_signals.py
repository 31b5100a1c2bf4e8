#!/usr/bin/env python3
"""Live captures survive Ctrl-C (issue 31, item 1). For each live mode (--follow on a growing file,
--listen on 127.0.0.1, --serial on a pty) and each file exporter (chrome, perfetto, ctf, sqlite;
the HTML report once; ClickHouse in tests/host/clickhouse_check.py secure),
`evtrace convert` runs with a pty as its controlling terminal; the test sends the data, then ^C
through that terminal. The output must hold every event sent, the count must be printed, the exit
must be 0 and nothing named .tmp- may remain. Then: SIGTERM and SIGHUP do the same; a second
signal abandons the output (no OUT, no .tmp-); SIGPIPE on stderr while a CTF directory is being
written leaves no .tmp- directory. All runs go in parallel to keep the test short."""
import fcntl, json, os, pty, signal, socket, sqlite3, subprocess, sys, tempfile, termios, time

evtrace, samples = sys.argv[1], sys.argv[2]
SAMPLE = os.path.join(samples, "rkh", "usr_events.bin")
data = open(SAMPLE, "rb").read()
NEV = sum(1 for l in subprocess.run([evtrace, "dump", "--json", SAMPLE], capture_output=True, text=True,
                                    check=True).stdout.splitlines() if l.strip())
tmp = tempfile.mkdtemp(prefix="evtrace-sig-")
fails = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def spawn(args):
    """evtrace with a fresh pty as controlling terminal (stdin, stdout, stderr); returns (proc, master)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([evtrace] + args, stdin=slave, stdout=slave, stderr=slave, cwd=tmp, start_new_session=True,
                         preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0), env=dict(os.environ, EVT_PROGRESS="0"))
    os.close(slave)
    return p, master


def drain(master):
    out = b""
    while True:
        try:
            b = os.read(master, 4096)
        except OSError:
            break
        if not b:
            break
        out += b
    return out.decode("utf-8", "replace")


def valid_output(kind, path):
    """Does the finished output hold NEV events?"""
    try:
        if kind == "chrome":
            evs = json.load(open(path))
            evs = evs["traceEvents"] if isinstance(evs, dict) else evs
            return sum(1 for e in evs if e.get("ph") not in ("M",)) >= NEV
        if kind == "sqlite":
            return sqlite3.connect(path).execute("SELECT count(*) FROM events").fetchone()[0] == NEV
        if kind == "ctf":
            return os.path.isfile(os.path.join(path, "metadata")) and any(
                f.startswith("stream_") for f in os.listdir(path)) and os.path.isfile(os.path.join(path, ".evtrace-output"))
        if kind == "html":
            return open(path, "rb").read(200).lstrip().lower().startswith(b"<!doctype html")
        if kind == "perfetto":
            b = open(path, "rb").read()
            return len(b) > 100 and b[0] == 0x0A
    except Exception as e:
        print("  ", kind, path, e)
    return False


def state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "?"


def consumed(pid, path):
    """Has evtrace read the followed file? Its descriptor's position is the file's size. (Sockets
    and serial lines: the caller waits until evtrace has been asleep, waiting for more input,
    for 300 ms in a row, longer than any pause of its own (the stream head waits 250 ms at most);
    on a loaded machine a process waiting for the CPU is runnable, not asleep.)"""
    if path is not None:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == path:
                    with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                        pos = int(f.readline().split()[1])
                    return pos >= os.path.getsize(path)
        except OSError:
            pass
        return False
    return False


KINDS = ["chrome", "perfetto", "ctf", "sqlite"]
runs = []  # (name, proc, master, kind, out, feeder-cleanup, signal-plan)


def start(mode, kind, plan="int"):
    out = f"{mode}-{plan}.{kind}"
    name = f"{mode} {kind} {plan}"
    if mode == "follow":
        path = os.path.join(tmp, f"grow-{kind}-{plan}.bin")
        open(path, "wb").write(data)
        p, m = spawn(["convert", "--follow", path, "--to", kind, "-o", out])
        runs.append([name, p, m, kind, out, plan, path])
    elif mode == "listen":
        port = free_port()
        p, m = spawn(["convert", "--listen", f"127.0.0.1:{port}", "--to", kind, "-o", out])
        conn = None
        for _ in range(200):
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=1)
                break
            except OSError:
                time.sleep(0.02)
        if conn:
            conn.sendall(data)
        runs.append([name, p, m, kind, out, plan, conn])
    elif mode == "serial":
        lm, ls = pty.openpty()
        p, m = spawn(["convert", "--serial", os.ttyname(ls), "--to", kind, "-o", out])
        runs.append([name, p, m, kind, out, plan, (lm, ls)])


for mode in ("follow", "listen", "serial"):
    for kind in KINDS:
        start(mode, kind)
start("listen", "html")  # convert -o x.html: the report, kept the same way
start("listen", "chrome", "term")
start("follow", "sqlite", "hup")
start("listen", "ctf", "twice")
start("follow", "sqlite", "twice")
time.sleep(0.5)
for r in runs:  # the serial lines get their data once evtrace has put them in raw mode
    if r[0].startswith("serial"):
        os.write(r[6][0], data)
deadline = time.time() + 30  # every run has read and decoded what it was sent (all sampled at once)
asleep = {id(r): 0 for r in runs}
while time.time() < deadline:
    waiting = 0
    for r in runs:
        if isinstance(r[6], str):
            waiting += not consumed(r[1].pid, r[6])
        else:
            asleep[id(r)] = asleep[id(r)] + 1 if state(r[1].pid) == "S" else 0
            waiting += asleep[id(r)] < 6
    if not waiting:
        break
    time.sleep(0.05)
for r in runs:
    name, p, m, kind, out, plan, extra = r
    if plan == "int":
        os.write(m, b"\x03")  # ^C through the terminal: SIGINT to its foreground group
    elif plan == "term":
        p.send_signal(signal.SIGTERM)
    elif plan == "hup":
        p.send_signal(signal.SIGHUP)
    elif plan == "twice":  # two signals before evtrace runs again: the second one abandons the output
        p.send_signal(signal.SIGSTOP)
        p.send_signal(signal.SIGINT)
        p.send_signal(signal.SIGTERM)
        p.send_signal(signal.SIGCONT)
for r in runs:
    name, p, m, kind, out, plan, extra = r
    try:
        p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill(); p.wait()
        check(False, f"{name}: still running 20 s after the signal")
        continue
    text = drain(m)
    os.close(m)
    path = os.path.join(tmp, out)
    if plan == "twice":
        check(p.returncode < 0 and not os.path.exists(path),
              f"{name}: a second signal abandons the output (exit {p.returncode}, OUT exists: {os.path.exists(path)})")
    else:
        sig = {"int": "SIGINT", "term": "SIGTERM", "hup": "SIGHUP"}[plan]
        check(p.returncode == 0 and f"stopped by {sig}: kept {NEV} events" in text and valid_output(kind, path),
              f"{name}: exit {p.returncode}, output complete: {valid_output(kind, path)}, said: {text.strip()[-120:]!r}")
    if isinstance(extra, socket.socket):
        extra.close()
    elif isinstance(extra, tuple):
        os.close(extra[0]); os.close(extra[1])

# SIGPIPE: stderr is a pipe nobody reads; "listening on" meets it while the CTF directory is reserved.
rd, wr = os.pipe()
os.close(rd)
p = subprocess.Popen([evtrace, "convert", "--listen", f"127.0.0.1:{free_port()}", "--to", "ctf", "-o", "pipe.ctf"],
                     cwd=tmp, stderr=wr, stdout=subprocess.DEVNULL)
os.close(wr)
try:
    p.wait(timeout=10)
    check(p.returncode == -signal.SIGPIPE, f"SIGPIPE on stderr ends the run by SIGPIPE (exit {p.returncode})")
except subprocess.TimeoutExpired:
    p.kill(); p.wait()
    check(False, "SIGPIPE on stderr: evtrace kept running")

left = [f for f in os.listdir(tmp) if ".tmp-" in f]
check(not left, f"no temporary output left behind ({left})")
import shutil
shutil.rmtree(tmp, True)
if fails:
    print(f"{len(fails)} live-signal check(s) failed", file=sys.stderr)
    sys.exit(1)
print(f"live signals: {len(runs)} captures kept or abandoned as asked, no .tmp- left")

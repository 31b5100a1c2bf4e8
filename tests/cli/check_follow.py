#!/usr/bin/env python3
"""`evtrace dump --follow` on live RKH streams: a growing file (events of the first part are printed,
flushed, before the rest is written), a pipe (stdin), and a TCP connection (--listen on loopback).
Each must decode every frame of the sample, in order."""
import json, os, socket, subprocess, sys, tempfile, time

evtrace, samples = sys.argv[1], sys.argv[2]
data = open(os.path.join(samples, "rkh", "usr_events.bin"), "rb").read()
want = [json.loads(l) for l in subprocess.run([evtrace, "dump", "--json", os.path.join(samples, "rkh", "usr_events.bin")],
                                              capture_output=True, text=True, check=True).stdout.splitlines()]
fails = []
tmp = tempfile.mkdtemp(prefix="evtrace-follow-")

# 1. growing file
path = os.path.join(tmp, "grow.bin")
open(path, "wb").write(data[:200])
p = subprocess.Popen([evtrace, "dump", "--json", "--follow", "--idle-exit", "3", path], stdout=subprocess.PIPE, text=True)
first = []
deadline = time.time() + 10
while time.time() < deadline and len(first) < 5:
    line = p.stdout.readline()
    if not line:
        break
    first.append(json.loads(line))
if len(first) < 5:
    fails.append(f"growing file: only {len(first)} events printed before the rest was written")
with open(path, "ab") as f:
    f.write(data[200:])
rest = [json.loads(l) for l in p.stdout.read().splitlines()]
p.wait(timeout=20)
got = first + rest
if [e["offset"] for e in got] != [e["offset"] for e in want] or p.returncode != 0:
    fails.append(f"growing file: {len(got)} events (want {len(want)}), exit {p.returncode}")

# 2. pipe on stdin
r = subprocess.run([evtrace, "dump", "--json", "-"], input=data, capture_output=True)
got = [json.loads(l) for l in r.stdout.decode().splitlines()]
if got != want:
    fails.append(f"stdin: {len(got)} events, want {len(want)}")

# 3. TCP on loopback
s0 = socket.socket(); s0.bind(("127.0.0.1", 0)); port = s0.getsockname()[1]; s0.close()
p = subprocess.Popen([evtrace, "dump", "--json", "--listen", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
conn = None
for _ in range(100):
    try:
        conn = socket.create_connection(("127.0.0.1", port), timeout=1)
        break
    except OSError:
        time.sleep(0.05)
if conn is None:
    fails.append("tcp: could not connect")
else:
    conn.sendall(data[:150]); time.sleep(0.2); conn.sendall(data[150:]); conn.close()
    out, err = p.communicate(timeout=20)
    got = [json.loads(l) for l in out.splitlines()]
    if got != want:
        fails.append(f"tcp: {len(got)} events, want {len(want)} ({err.strip()[:200]})")

# 4. usage: --follow on a missing file is an input error
r = subprocess.run([evtrace, "dump", "--follow", os.path.join(tmp, "missing.bin")], capture_output=True, text=True)
if r.returncode != 3:
    fails.append(f"missing file: exit {r.returncode}")

import shutil
shutil.rmtree(tmp, True)
if fails:
    print("\n".join(fails), file=sys.stderr)
    sys.exit(1)
print("follow: growing file, stdin and tcp decoded live")

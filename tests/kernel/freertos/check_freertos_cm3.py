#!/usr/bin/env python3
"""The FreeRTOS Cortex-M3 example (examples/freertos-cortex-m3) under QEMU mps2-an385, both
transports, against the counters FreeRTOS printed in the same run (compare() of check_freertos.py:
switch-ins, queue/semaphore operations and inheritances exact, CPU within 1 % plus ISR time):
1. snapshot: QEMU halted at reset with its gdbstub, scripts/evtrace-gdb-dump runs the firmware to
   app_trace_done and dumps `trace_buf` by symbol; `evtrace stats --json` of the dump;
2. stream: the live firmware's UART0 into `evtrace convert --listen` (decoded as it arrives,
   written as Chrome JSON with the task names), and the same run's bytes (-serial file, QEMU's
   -icount makes runs identical in virtual time) into `evtrace stats --json`.
Every missing tool is a failure (FREERTOS_KERNEL_PATH is the caller's condition).
Usage: check_freertos_cm3.py SOURCE_DIR WORK_DIR EVTRACE FREERTOS_KERNEL_PATH"""
import json, os, shutil, socket, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree (it was committed once by mistake)
from check_freertos import compare, fail  # noqa: E402

src, work, evtrace, kernel = sys.argv[1:5]
for tool in ("arm-none-eabi-gcc", "qemu-system-arm", "gdb-multiarch", "make"):
    if not shutil.which(tool):
        fail("'%s' not installed (bash scripts/deps.sh check)" % tool)
QEMU = ["qemu-system-arm", "-M", "mps2-an385", "-cpu", "cortex-m3", "-nographic", "-monitor", "none",
        "-icount", "shift=4,sleep=off"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def semihosting(path):
    return ["-chardev", "file,id=sh0,path=" + path, "-semihosting-config", "enable=on,target=native,chardev=sh0"]


def counters(path):
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if l.startswith("{")]
    if not lines:
        fail("no counters line in " + path)
    return json.loads(lines[-1])


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
r = subprocess.run(["make", "-s", "-C", os.path.join(src, "examples", "freertos-cortex-m3"), "OUT=" + work,
                    "FREERTOS_KERNEL_PATH=" + kernel, "-j2"], capture_output=True, text=True, timeout=600)
if r.returncode != 0:
    fail("build: " + r.stderr[-2000:])
snap_elf = os.path.join(work, "freertos_cm3_snapshot.elf")
live_elf = os.path.join(work, "freertos_cm3_live.elf")

# ---- 1. snapshot over GDB
port = free_port()
sh = os.path.join(work, "snap.semihost")
q = subprocess.Popen(QEMU + ["-serial", "null", "-gdb", "tcp:127.0.0.1:%d" % port, "-S"] + semihosting(sh) +
                     ["-kernel", snap_elf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
time.sleep(0.3)
base = os.path.join(work, "snap")
g = subprocess.run(["bash", os.path.join(src, "scripts", "evtrace-gdb-dump"), "--remote", "127.0.0.1:%d" % port,
                    "--symbol", "trace_buf", "--break", "app_trace_done", "--detach", "--evtrace", evtrace,
                    "--timeout", "120", snap_elf, base], capture_output=True, text=True, timeout=180)
try:
    qrc = q.wait(timeout=120)
except subprocess.TimeoutExpired:
    q.kill()
    q.wait()
    qrc = -1
if g.returncode != 0 or qrc != 0:
    fail("snapshot: evtrace-gdb-dump exit %d (%s), QEMU exit %d" % (g.returncode, g.stderr.strip()[-300:], qrc))
compare(counters(sh), evtrace, base + ".bin", "cortex-m3 snapshot (GDB dump)")

# ---- 2. stream on the UART: live into convert --listen, and the same run's bytes into stats
port = free_port()
out_json = os.path.join(work, "live.json")
p = subprocess.Popen([evtrace, "convert", "--listen", "127.0.0.1:%d" % port, "--idle-exit", "30", "-o", out_json],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
ready, errs = threading.Event(), []


def read_err():
    for line in p.stderr:
        errs.append(line)
        if "listening on" in line:
            ready.set()


t = threading.Thread(target=read_err)
t.start()
ready.wait(10)
sh2 = os.path.join(work, "live.semihost")
q = subprocess.run(QEMU + ["-serial", "tcp:127.0.0.1:%d" % port] + semihosting(sh2) + ["-kernel", live_elf],
                   capture_output=True, text=True, timeout=180)
try:
    rc = p.wait(timeout=60)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    rc = -1
t.join(5)
try:
    with open(out_json) as f:
        doc = json.load(f)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
except (OSError, ValueError, KeyError):
    evs = []
names = {e.get("args", {}).get("name") for e in evs if e.get("ph") == "M"}
if q.returncode != 0 or rc != 0 or not evs or not {"producer", "consumer", "low", "high"} <= names:
    fail("stream: QEMU exit %d, convert --listen exit %d, %d Chrome events, thread names %s: %s"
         % (q.returncode, rc, len(evs), sorted(n for n in names if n), "".join(errs)[-300:]))
print("ok: cortex-m3 stream: UART0 -> evtrace convert --listen: %d Chrome JSON events, tasks named %s"
      % (len(evs), ", ".join(sorted(n for n in names if n))))
raw = os.path.join(work, "live.rkh")
sh3 = os.path.join(work, "live3.semihost")
q = subprocess.run(QEMU + ["-serial", "file:" + raw] + semihosting(sh3) + ["-kernel", live_elf],
                   capture_output=True, text=True, timeout=180)
if q.returncode != 0:
    fail("stream to a file: QEMU exit %d" % q.returncode)
compare(counters(sh3), evtrace, raw, "cortex-m3 stream (UART bytes)")

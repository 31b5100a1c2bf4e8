#!/usr/bin/env python3
"""The μT-Kernel demo end to end: runs utk_demo (scripted scenario on the host μT-Kernel, DS hooks
recorded in TXTB), then checks
 1. `evtrace stats --json` of its trace against the kernel's own accounting of the same run:
    per-task CPU time (exec->stop minus the ISRs inside, which stats charges to the ISR), ISR count
    and time, per-service count/min/max/sum, no unmatched service exits;
 2. `evtrace convert` (Chrome JSON for Perfetto): a named track per task with running slices,
    ISR slices named after the interrupts, service slices named tk_wai_sem etc. on the task tracks.
Usage: check_utk_demo.py EVTRACE UTK_DEMO"""
import json, os, subprocess, sys, tempfile

evtrace, demo = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as d:
    trx, acct_path, chrome = (os.path.join(d, n) for n in ("utk.trx", "acct.json", "utk.json"))
    r = subprocess.run([demo, trx, acct_path], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    acct = json.load(open(acct_path))
    r = subprocess.run([evtrace, "stats", "--json", trx], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    st = json.loads(r.stdout)
    r = subprocess.run([evtrace, "convert", trx, "-o", chrome], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    doc = json.load(open(chrome))

# 1. stats == the kernel's accounting (virtual clock: TXTB has no clock rate, so both are in ticks = us)
assert st["format"] == "threadx", st["format"]
assert st["time_unit"] == "ticks", st["time_unit"]
ctx = {c["name"]: c for c in st["contexts"]}
for t in acct["tasks"]:
    assert t["name"] in ctx, f"task {t['name']} missing from stats contexts {sorted(ctx)}"
    want = t["cpu"] - t["isr_inside"]
    got = ctx[t["name"]]["cpu_time"]
    assert got == want, f"task {t['name']}: stats cpu_time {got} != kernel {want}"
assert st["isr_time"] == acct["isr_time"], (st["isr_time"], acct["isr_time"])
isr_count = sum(i["count"] for i in st["isrs"])
assert isr_count == acct["isr_count"], (isr_count, acct["isr_count"])
assert sum(i["sum"] for i in st["isrs"]) == acct["isr_time"]
assert {i["name"] for i in st["isrs"]} == {"systick", "adc"}, st["isrs"]
svc = {s["name"]: s for s in st["services"]}
for s in acct["services"]:
    g = svc.get(s["name"])
    assert g is not None, f"service {s['name']} missing from stats"
    for k in ("count", "min", "max", "sum"):
        assert g[k] == s[k], f"{s['name']}.{k}: stats {g[k]} != kernel {s[k]}"
assert set(svc) == {s["name"] for s in acct["services"]}, (sorted(svc), acct["services"])
assert st["unmatched_exits"]["svc"] == 0, st["unmatched_exits"]
assert st["lost"]["events"] == 0 and st["errors"] == 0

# 2. Perfetto (Chrome JSON): tracks, running slices, ISR and service slices
ev = doc["traceEvents"]
tracks = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
tid_of = {v: k for k, v in tracks.items()}
for t in acct["tasks"]:
    assert t["name"] in tid_of, f"no track for task {t['name']}: {tracks}"
begins = [e for e in ev if e.get("ph") == "B"]
running = {tracks[e["tid"]] for e in begins if e["name"] == "running"}
assert {t["name"] for t in acct["tasks"]} <= running, running
isr_slices = [e["name"] for e in begins if tracks.get(e["tid"], "").startswith("ISR cpu ")]
assert isr_slices.count("adc") == 5 and "systick" in isr_slices, isr_slices[:10]
sensor_svc = [e["name"] for e in begins if e["tid"] == tid_of["sensor"] and e["name"] != "running"]
assert "tk_wai_sem" in sensor_svc and "tk_snd_mbx" in sensor_svc, sensor_svc
logger_svc = {e["name"] for e in begins if e["tid"] == tid_of["logger"] and e["name"] != "running"}
assert "tk_rcv_mbx" in logger_svc, logger_svc
print(f"utk demo: {len(acct['tasks'])} tasks, {len(acct['services'])} services, {acct['isr_count']} interrupts: "
      "stats == kernel accounting; Perfetto tracks and slices present")

#!/usr/bin/env python3
"""Checks evtrace's Chrome JSON export of a ThreadX sample against the sample's answer key:
valid JSON, one named track per registry thread seen, balanced B/E slices per track, an ISR track
with ISR_ENTER slices, and one instant per user event."""
import json, subprocess, sys, tempfile, os

evtrace, sample, key = sys.argv[1], sys.argv[2], sys.argv[3]
k = json.load(open(key))
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "t.json")
    r = subprocess.run([evtrace, "convert", sample, "-o", out], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert not any(n.startswith("t.json.tmp") for n in os.listdir(d)), "temporary file left behind"
    doc = json.load(open(out))
ev = doc["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
threads_in_key = {n for n in k["events"]["count_by_context"] if n not in ("init", "isr")}
missing = threads_in_key - set(names.values())
assert not missing, f"thread tracks missing: {missing}"
depth = {}
for e in ev:
    if e.get("ph") == "B":
        depth[e["tid"]] = depth.get(e["tid"], 0) + 1
    elif e.get("ph") == "E":
        depth[e["tid"]] = depth.get(e["tid"], 0) - 1
        assert depth[e["tid"]] >= 0, f"E without B on tid {e['tid']}"
assert all(v == 0 for v in depth.values()), f"unbalanced slices: {depth}"
isr_tid = [t for t, n in names.items() if n == "ISR"]
isr_count = k["events"]["count_by_id"].get("3", {}).get("count", 0)
if isr_count:
    assert isr_tid, "no ISR track"
    got = sum(1 for e in ev if e.get("ph") == "B" and e["tid"] == isr_tid[0] and e["name"] == "ISR_ENTER")
    assert got == isr_count, f"ISR slices {got} != {isr_count}"
user = sum(v["count"] for i, v in k["events"]["count_by_id"].items() if 4096 <= int(i) <= 65535)
got_user = sum(1 for e in ev if e.get("ph") == "i" and e.get("cat") == "user")
assert got_user == user, f"user instants {got_user} != {user}"
running = sum(1 for e in ev if e.get("ph") == "B" and e.get("name") == "running")
assert running > 0
print(f"chrome export OK: {len(names)} tracks, {running} running slices, {got_user} user instants")

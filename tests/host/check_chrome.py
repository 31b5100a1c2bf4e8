#!/usr/bin/env python3
"""Checks evtrace's Chrome JSON export of a trace (a ThreadX sample with its answer key, or any trace
with key "-"): valid JSON, balanced B/E slices per track, one instant per user event (answer key),
and that it shows the same timeline as the Perfetto export and the scheduling model:
- per thread, the "running" slices are the running intervals of the independent scheduling model
  (tests/host/perfetto_sched_model.py, which reads `dump --json` and the context classes of
  `stats --json`): same count and total duration; their number is the thread's `switches` of
  `evtrace stats --json` and, minus the ISR time inside them, their total is its `cpu_time`;
- the same thread names as the Perfetto export's thread tracks, the same ISR slices (names and
  count, on "ISR cpu N" tracks), the same service/function slices (first pieces; later pieces carry
  args.resumed; a service recorded as one instant is its "i" record), the same flows ("s"/"f" pairs
  with one id each), counters (names, times, values; CPU load to 0.01 %) and losses.
Usage: check_chrome.py EVTRACE TRACE KEY|- PROTO_DIR"""
import decimal
import json
import os
import sys
import tempfile
from export_common import fail, run, dump
from perfetto_decode import decode, Trace
from perfetto_sched_model import model, NOCTX, caps_of

ISR_TID_BASE, STATE_TID_BASE, BLOCKED_TID_BASE = 2000000, 1000000, 4000000

evtrace, sample, key, proto_dir = sys.argv[1:5]
base = os.path.basename(sample)
with tempfile.TemporaryDirectory() as d:
    out, pf = os.path.join(d, "t.json"), os.path.join(d, "t.pftrace")
    r = run([evtrace, "convert", sample, "-o", out])
    if r.returncode != 0:
        fail(r.stderr.decode())
    if any(n.startswith("t.json.tmp") for n in os.listdir(d)):
        fail("temporary file left behind")
    with open(out, encoding="utf-8") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    r = run([evtrace, "convert", "-q", sample, "-o", pf])
    if r.returncode != 0:
        fail(r.stderr.decode())
    P = Trace(decode(pf, proto_dir)[1])
ev = doc["traceEvents"]
ns = doc["otherData"]["time_unit"] == "ns"


def t_of(x):
    """Chrome "ts"/"dur" (µs) -> the timeline's unit (ns, or ticks shown as µs)."""
    v = decimal.Decimal(x)
    return int(v * 1000) if ns else int(v)


names = {}
for e in ev:
    if e.get("ph") == "M" and e.get("name") == "thread_name":
        names[e["tid"]] = e["args"]["name"]
depth, stacks, running, slices = {}, {}, {}, []
for e in ev:
    ph = e.get("ph")
    if ph == "B":
        stacks.setdefault(e["tid"], []).append(e)
    elif ph == "E":
        if not stacks.get(e["tid"]):
            fail(f"E without B on tid {e['tid']}")
        b = stacks[e["tid"]].pop()
        if b["name"] == "running" and b.get("cat") == "sched":
            running.setdefault(e["tid"], []).append((t_of(b["ts"]), t_of(e["ts"])))
        elif e["tid"] < STATE_TID_BASE or e["tid"] >= ISR_TID_BASE:
            slices.append((b, t_of(b["ts"]), t_of(e["ts"])))
if any(stacks.values()):
    fail(f"unbalanced slices: { {t: len(v) for t, v in stacks.items() if v} }")

# Answer key of the ThreadX samples: thread tracks, ISR_ENTER slices, user instants.
if key != "-":
    with open(key) as f:
        k = json.load(f)
    missing = {n for n in k["events"]["count_by_context"] if n not in ("init", "isr")} - set(names.values())
    if missing:
        fail(f"thread tracks missing: {missing}")
    isr_count = k["events"]["count_by_id"].get("3", {}).get("count", 0)
    got = sum(1 for b, _, _ in slices if b["tid"] >= ISR_TID_BASE and b["name"].startswith("ISR_ENTER"))
    if got != isr_count:
        fail(f"ISR slices {got} != {isr_count}")
    user = sum(v["count"] for i, v in k["events"]["count_by_id"].items() if 4096 <= int(i) <= 65535)
    got_user = sum(1 for e in ev if e.get("ph") == "i" and e.get("cat") == "user")
    if got_user != user:
        fail(f"user instants {got_user} != {user}")

# Running slices per thread == the model's running intervals.
evs = dump(evtrace, sample)
st = json.loads(run([evtrace, "stats", "--json", sample]).stdout.decode())
classes = {c["ctx"]: c["class"] for c in st["contexts"] if c["ctx"] is not None}
m = model(evs, classes, caps_of(evtrace, sample))
end = max((e["t_ns"] if "t_ns" in e else e["ts"]) for e in evs)
want = {}   # context key -> [(t0, t1)]
since = {}
for t, cpu, p, n, _ in m.switches:
    if p is not None:
        want.setdefault(p, []).append((since.pop(p), t))
    if n is not None:
        since[n] = t
for c, t in since.items():
    if end > t:
        want.setdefault(c, []).append((t, end))
want = {c: [iv for iv in v if iv[1] > iv[0]] for c, v in want.items()}
ctx_names = {}
for e in evs:
    if e.get("ctx") is not None and e.get("ctx_name"):
        ctx_names[e["ctx"]] = e["ctx_name"]
# (a switch in and out at the same time draws a zero-length slice: not an interval)
got_by_name = {names.get(tid): [iv for iv in v if iv[1] > iv[0]] for tid, v in running.items()}
for c, ivs in want.items():
    if c == NOCTX or not ivs:
        continue
    nm = ctx_names.get(c, "ctx 0x%x" % c)
    g = got_by_name.get(nm, [])
    if len(g) != len(ivs) or sum(b - a for a, b in g) != sum(b - a for a, b in ivs):
        fail(f"{base}: {nm}: {len(g)} running slices, {sum(b - a for a, b in g)} total; "
             f"model {len(ivs)}, {sum(b - a for a, b in ivs)}")
# `stats --json` (on the timeline): each thread's running slices are its switches, and their time
# minus the outermost ISR time inside them is its cpu_time (single-CPU traces: the ISR track is
# the one CPU's).
raw_by_name = {names.get(tid): v for tid, v in running.items()}
stats_ctx = {c["name"]: c for c in st["contexts"] if c["class"] != "isr" and c["ctx"] is not None}
outer, last_end = [], None
for a, b in sorted((a, b) for bb, a, b in slices if bb["tid"] >= ISR_TID_BASE):
    if last_end is None or a >= last_end:
        outer.append((a, b))
    last_end = b if last_end is None else max(last_end, b)
for nm, c in stats_ctx.items():
    ivs = raw_by_name.get(nm, [])
    if len(ivs) != c["switches"]:
        fail(f"{base}: {nm}: {len(ivs)} running slices != stats switches {c['switches']}")
    if st.get("cpus", 1) == 1:
        inside = sum(max(0, min(b, y) - max(a, x)) for a, b in ivs for x, y in outer)
        if sum(b - a for a, b in ivs) - inside != c["cpu_time"]:
            fail(f"{base}: {nm}: running {sum(b - a for a, b in ivs)} - ISR {inside} != stats cpu_time {c['cpu_time']}")

# The same timeline as the Perfetto export.
pf_names = set(P.thread_name.values()) | {P.track_name(u) for u in P.tracks if int(u) & 15 == 4}  # context tracks: perfetto.c UUID_CTX
ch_names = {n for t, n in names.items() if t < STATE_TID_BASE or ISR_TID_BASE <= t < BLOCKED_TID_BASE}
if ch_names != pf_names | {P.track_name(u) for u in P.tracks if (P.track_name(u) or "").startswith("ISR cpu ")}:
    fail(f"{base}: track names differ: chrome {sorted(ch_names)}, perfetto {sorted(pf_names)}")
first_pieces = sorted([(a, bb["name"]) for bb, a, _ in slices if not bb.get("args", {}).get("resumed")] +
                      [(t_of(e["ts"]), e["name"]) for e in ev if e.get("ph") == "i" and e.get("cat") == "svc"])
pf_slices = sorted((ts, nm) for _, ts, nm, cat, _ in P.slices if cat != "blocked")
if first_pieces != pf_slices:
    fail(f"{base}: slices differ: chrome {len(first_pieces)}, perfetto {len(pf_slices)}")
# Blocked states: Chrome's "X" slices (cat blocked) on "<context> (blocked)" = Perfetto's blocked
# slices on "blocked <context>", same times, names and objects.
ch_blocked = sorted((names.get(e["tid"]), t_of(e["ts"]), t_of(e["ts"]) + t_of(e["dur"]), e["name"],
                     e.get("args", {}).get("object_id")) for e in ev if e.get("cat") == "blocked")
pf_bb = [(tr, nm, ann.get("object_id")) for tr, _, nm, cat, ann in P.slices if cat == "blocked"]
pf_be = [(tr, t0, t1) for tr, t0, t1, _, cat in P.closed if cat == "blocked"]
pf_blocked = sorted(("%s (blocked)" % P.track_name(tr)[len("blocked "):], t0, t1, b[1], b[2])
                    for (tr, t0, t1), b in zip(pf_be, pf_bb))
if ch_blocked != pf_blocked or any(e.get("ph") != "X" or e.get("tid", 0) < BLOCKED_TID_BASE
                                   for e in ev if e.get("cat") == "blocked"):
    fail(f"{base}: blocked slices: chrome {len(ch_blocked)}, perfetto {len(pf_blocked)} "
         f"{next(((a, b) for a, b in zip(ch_blocked, pf_blocked) if a != b), None)}")
flows_s = sorted(e["id"] for e in ev if e.get("ph") == "s")
flows_f = sorted(e["id"] for e in ev if e.get("ph") == "f")
pf_flows = sorted(i for *_, fo, _ in P.instants for i in fo)
if flows_s != flows_f or flows_s != pf_flows:
    fail(f"{base}: flows: chrome {len(flows_s)} s / {len(flows_f)} f, perfetto {len(pf_flows)}")
counters = sorted((e["name"], t_of(e["ts"]), float(e["args"]["value"])) for e in ev if e.get("ph") == "C")
pf_counters = sorted((P.track_name(u), ts, float(v)) for u, smp in P.counters.items()
                     if P.track_name(u) != "lost events" for ts, v in smp)
same_counters = len(counters) == len(pf_counters) and all(
    a[:2] == b[:2] and abs(a[2] - b[2]) <= 0.0051 for a, b in zip(counters, pf_counters))
lost = [e["args"]["count"] for e in ev if e.get("ph") == "i" and e.get("cat") == "lost"]
pf_lost = [ann.get("count") for _, _, _, cat, ann, _, _ in P.instants if cat == "lost"]
if not same_counters or lost != pf_lost:
    fail(f"{base}: counters {len(counters)} vs {len(pf_counters)} "
         f"{next(((a, b) for a, b in zip(counters, pf_counters) if a != b), None)}, lost {lost} vs {pf_lost}")
print(f"{base}: chrome = timeline: {len(names)} tracks, {sum(len(v) for v in running.values())} running slices "
      f"(= model), {len(first_pieces)} slices, {len(ch_blocked)} blocked, {len(flows_s)} flows, {len(counters)} counter samples, {len(lost)} losses "
      "(= perfetto)")

#!/usr/bin/env python3
"""Checks `evtrace info --json` and `evtrace dump --json` of one real ThreadX buffer against its
independent answer key (<name>.key.json) and entry list (<name>.entries.csv), exactly:
layout, registry slots, per-id counts, contexts, oldest index, first/last masked timestamps, and
every entry (slot order, context, priority word, id, info1..4, timestamp deltas)."""
import csv, json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "support"))
from evtcheck import Checker  # noqa: E402

evtrace, base = sys.argv[1], sys.argv[2]
trx, key = base + ".trx", json.load(open(base + ".key.json"))
rows = list(csv.DictReader(open(base + ".entries.csv")))
C = Checker(evtrace)
check, run, fails = C.check, C.run, C.fails


info = json.loads(run("info", "--json", trx))
ev, hdr, lay = key["events"], key["header"], key["layout"]
check("format", info["format"], "threadx")
check("events", info["events"], ev["valid_entries"])
check("errors", info["errors"], 0)
check("lost", info["lost"], 0)
check("byte_order", info["byte_order"], key["byte_order"])
check("capacity", info["capacity"], lay["event_capacity"])
check("registry_entries", info["registry_entries"], lay["registry_entries"])
check("wrapped", info["wrapped"], ev["wrapped"])
check("oldest_index", info["oldest_index"], ev["oldest_index"])
check("timer_mask", info["timer_mask"], int(hdr["timer_valid_mask"], 16))
check("first_timestamp", info["first_timestamp"], ev["first_timestamp"])
check("last_timestamp", info["last_timestamp"], ev["last_timestamp"])
check("contexts", info["contexts"], ev["contexts"])
check("count_by_id", info["count_by_id"], {i: v["count"] for i, v in ev["count_by_id"].items()})

objs = {o["index"]: o for o in info["objects"]}
used = [r for r in key["registry"] if r["type"] != 0]
check("objects listed", sorted(objs), [r["index"] for r in used])
for r in used:
    o = objs.get(r["index"], {})
    want = {"index": r["index"], "type": r["type"], "type_name": r["type_name"], "name": r["name"],
            "addr": int(r["pointer"], 16), "param1": r["param1"], "param2": r["param2"],
            "available": r["available"]}
    got = {k: o.get(k) for k in want}
    check(f"registry slot {r['index']}", got, want)
    if "registered_priority" in r:
        check(f"registry slot {r['index']} priority", o.get("priority"), r["registered_priority"])
    elif o.get("priority") is not None:
        fails.append(f"registry slot {r['index']}: priority {o['priority']} but the key has none")

events = [json.loads(line) for line in run("dump", "--json", trx).splitlines()]
check("dump lines", len(events), len(rows))
mask = int(hdr["timer_valid_mask"], 16)
down = ev.get("timestamp_decreases", 0) > len(rows) // 2
prev_ts = prev_raw = None
names = {r["index"]: r["name"] for r in used}
for n, (e, row) in enumerate(zip(events, rows)):
    slot_off = lay["event_area_offset"] + int(row["index"]) * 32
    want = {"fmt": "threadx", "ctx": int(row["context"], 16), "prio": int(row["priority"], 16),
            "id": int(row["event_id"]), "offset": slot_off,
            "args": [int(row[f"info{i}"], 16) for i in range(1, 5)]}
    got = {k: e.get(k) for k in want}
    if got != want:
        fails.append(f"entry {n}: got {got}, want {want}")
    for k in ("fmt", "id", "name", "kind", "ts", "ctx", "args"):
        if k not in e:
            fails.append(f"entry {n}: key {k} missing")
    if int(row["event_id"]) <= 129 and not row["event"].startswith(("USER", "UNKNOWN")):
        check(f"entry {n} name", e["name"], row["event"])
    raw = int(row["timestamp"]) & mask
    if prev_ts is not None:
        step = ((prev_raw - raw) if down else (raw - prev_raw)) % (mask + 1)
        check(f"entry {n} ts step", e["ts"] - prev_ts, step)
    prev_ts, prev_raw = e["ts"], raw

C.finish(trx, f"{len(rows)} entries, {len(used)} registry objects")

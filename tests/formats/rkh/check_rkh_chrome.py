#!/usr/bin/env python3
"""Chrome export of an RKH stream: a track per active object named from the symbol records, state
occupancy as slices on "<ao> (state)" (one per SM_STATE, in order), the other records as instants
with their arguments, balanced slices."""
import json, os, subprocess, sys, tempfile

evtrace, binf = sys.argv[1], sys.argv[2]
dump = [json.loads(l) for l in subprocess.run([evtrace, "dump", "--json", binf], capture_output=True, text=True, check=True).stdout.splitlines()]
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "t.json")
    subprocess.run([evtrace, "convert", binf, "-o", out], check=True, capture_output=True)
    ev = json.load(open(out))["traceEvents"]
names = {}
for e in ev:
    if e.get("ph") == "M" and e["name"] == "thread_name":
        names[e["tid"]] = e["args"]["name"]
fails = []
aos = sorted({e["ctx_name"] for e in dump if e.get("ctx_name")})
for ao in aos:
    if ao not in names.values() or f"{ao} (state)" not in names.values():
        fails.append(f"missing tracks for {ao}: {sorted(names.values())}")
want_states = [e["fields"]["state_entered"] for e in dump if e["name"] in ("SM_STATE", "SM_TS_STATE")]
state_tids = {t for t, n in names.items() if n.endswith("(state)")}
got_states = [e["name"] for e in ev if e.get("ph") == "B" and e["tid"] in state_tids]
if got_states != want_states:
    fails.append(f"state slices {got_states} != {want_states}")
depth = {}
for e in ev:
    if e.get("ph") in ("B", "E"):
        depth[e["tid"]] = depth.get(e["tid"], 0) + (1 if e["ph"] == "B" else -1)
        if depth[e["tid"]] < 0:
            fails.append(f"unbalanced E on {names.get(e['tid'])}")
if any(depth.values()):
    fails.append(f"unbalanced slices: {depth}")
others = [e for e in dump if e["name"] not in ("SM_STATE", "SM_TS_STATE")]
inst = [e for e in ev if e.get("ph") == "i"]
if len(inst) != len(dump):
    fails.append(f"{len(inst)} instants for {len(dump)} records")
for e in inst:
    if "args" not in e.get("args", {}):
        fails.append(f"instant {e['name']} without its arguments")
        break
if fails:
    print("\n".join(fails), file=sys.stderr)
    sys.exit(1)
print(f"rkh chrome: {len(aos)} active objects, {len(got_states)} state slices, {len(inst)} instants")

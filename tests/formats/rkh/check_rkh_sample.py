#!/usr/bin/env python3
"""Checks `evtrace info --json` / `dump --json` of a real RKH stream against its answer key
(<name>.expected.json) and its frame table (<name>.frames.tsv): frame counts, TCFG fields, per-event
counts, symbol tables, and every frame's offset, id, name, seq, timestamp and decoded arguments."""
import csv, json, os, re, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "support"))
from evtcheck import Checker  # noqa: E402

evtrace, base = sys.argv[1], sys.argv[2]
binf = base + ".bin"
key = json.load(open(base + ".expected.json"))
rows = list(csv.DictReader(open(base + ".frames.tsv"), delimiter="\t"))
C = Checker(evtrace)
check, run, fails = C.check, C.run, C.fails


info = json.loads(run("info", "--json", binf))
c = key["counts"]
check("format", info["format"], "rkh")
check("frames", info["frames"], c["frames"])
check("frames_ok", info["frames_ok"], c["ok"])
check("bytes_before_first_flag", info["bytes_before_first_flag"], c["bytes_before_first_flag"])
check("trailing_bytes", info["trailing_bytes"], c["trailing_unterminated_bytes"])
check("seq_gaps", info["seq_gaps"], key["seq_gaps"])
check("missing_records", info["missing_records"], key["seq_missing_total"])
check("checksum_errors", info["checksum_errors"], 0)
check("aborted_frames", info["aborted_frames"], 0)
check("errors", info["errors"], 0)
check("events_by_name", info["events_by_name"], key["events_by_name"])
check("symbols", info["symbols"], key["symbols"])
check("signals", info["signals"], key["signals"])
check("user_events", info["user_events"], key["user_events"])
want_t = dict(key["tcfg"][0])
got_t = info["tcfg"] or {}
want_t["flags"] = int(want_t["flags_u32"], 16)  # also numeric; version_code/flags_u32 as in the key
for k, v in want_t.items():
    check(f"tcfg.{k}", got_t.get(k), v)

events = [json.loads(l) for l in run("dump", "--json", binf).splitlines()]
check("dump events", len(events), len(rows))
for n, (e, row) in enumerate(zip(events, rows)):
    where = f"frame {n} @{row['offset']}"
    check(f"{where} offset", e["offset"], int(row["offset"]))
    check(f"{where} id", e["id"], int(row["id"]))
    check(f"{where} name", e["name"], row["name"].split("(")[0])
    if row["seq"]:
        check(f"{where} seq", e.get("seq"), int(row["seq"]))
    if row["tstamp"]:
        check(f"{where} ts", e["ts"], int(row["tstamp"]))
    f = e.get("fields", {})
    if e["name"] == "FWK_TCFG":
        continue
    if e["name"].startswith("USR#"):
        fields = [v for k, v in f.items() if re.match(r"f\d+_[A-Z0-9]+$", k)]
        items = row["args"].split(" ") if row["args"] else []
        # the STR value may contain spaces in principle; the samples' do not
        vals = []
        for it in items:
            m = re.match(r"(\w+)(?:/w\d+)?:(.*)$", it) or re.match(r"(MEM)\[\d+\]:(.*)$", it)
            typ, val = m.group(1), m.group(2)
            if typ in ("STR",):
                vals.append(val)
            elif typ == "MEM":
                vals.append(val.lower())
            elif typ in ("OBJ", "FUN", "SIG"):
                vals.append(int(val.split("(")[0], 0))
            elif typ == "X32":
                vals.append(int(val, 16))
            else:
                vals.append(int(val))
        if not items and e["name"] == "USR#1":
            vals = [""]
        check(f"{where} user fields", fields, vals)
        continue
    for kv in re.findall(r"(\w+)=((?:(?! \w+=).)*)", row["args"]):
        k, v = kv
        if k == "name" or k == "module":
            check(f"{where} {k}", f.get(k), v)
            continue
        m = re.match(r"(0x[0-9A-Fa-f]+|\d+)(?:\((.*)\))?$", v)
        if not m:
            fails.append(f"{where}: cannot read {k}={v}")
            continue
        check(f"{where} {k}", f.get(k), int(m.group(1), 0))
        if m.group(2):
            check(f"{where} {k}_name", f.get(k + "_name"), m.group(2))

C.finish(binf, f"{len(rows)} frames")

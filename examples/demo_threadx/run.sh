#!/usr/bin/env bash
# ThreadX demo of `make run`: runs demo_threadx (pthreads recording a TXTB trace), then shows
# `evtrace info`, a per-context summary from `evtrace dump --json`, converts the trace to Chrome
# JSON for ui.perfetto.dev and checks that the JSON loads and has one track per registered thread.
# Usage: examples/demo_threadx/run.sh BUILD_DIR   (outputs in out/ of the repository, or $EVT_DEMO_OUT)
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
BUILD="$(cd "$1" && pwd)"
cd "$(dirname "$0")/../.."          # the repository root: paths below are shown relative to it
OUT="${EVT_DEMO_OUT:-out}"
EVTRACE="$BUILD/evtrace"
DEMO="$BUILD/examples/demo_threadx/demo_threadx"
for f in "$EVTRACE" "$DEMO"; do
    [ -x "$f" ] || { echo "demo_threadx: $f not built (run: make build)" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "demo_threadx: python3 missing (bash scripts/deps.sh)" >&2; exit 1; }
mkdir -p "$OUT"

"$DEMO" "$OUT/demo.trx"
echo
echo "\$ ${EVTRACE#"$PWD"/} info $OUT/demo.trx"     # build/normal/evtrace under make run
"$EVTRACE" info "$OUT/demo.trx"
echo
echo "Events per context (from evtrace dump --json):"
"$EVTRACE" dump --json "$OUT/demo.trx" | python3 -c '
import json, sys, collections
per_ctx = collections.Counter()
per_name = collections.Counter()
users = collections.Counter()
for line in sys.stdin:
    e = json.loads(line)
    who = e.get("ctx_name") or ("ISR" if e.get("ctx") == 0xFFFFFFFF else
                                "initialisation" if e.get("ctx") == 0xF0F0F0F0 else hex(e.get("ctx") or 0))
    per_ctx[who] += 1
    per_name[e["name"]] += 1
for who, n in per_ctx.most_common():
    print(f"  {who:<22} {n:6d}")
print("Most frequent events:")
for name, n in per_name.most_common(8):
    print(f"  {name:<22} {n:6d}")
'
echo
echo "\$ ${EVTRACE#"$PWD"/} convert $OUT/demo.trx -o $OUT/demo.json"
"$EVTRACE" convert "$OUT/demo.trx" -o "$OUT/demo.json"
python3 - "$OUT/demo.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
events = doc["traceEvents"] if isinstance(doc, dict) else doc
names = {e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
want = {"System Timer Thread", "producer", "consumer", "worker", "ISR"}
missing = want - names
if missing:
    sys.exit(f"demo_threadx: {sys.argv[1]} lacks tracks {sorted(missing)} (has {sorted(names)})")
depth = {}
for e in events:  # B/E slices must nest per track, or the viewer drops them
    if e.get("ph") in ("B", "E"):
        depth[e["tid"]] = depth.get(e["tid"], 0) + (1 if e["ph"] == "B" else -1)
        if depth[e["tid"]] < 0:
            sys.exit(f"demo_threadx: slice end without a begin on track {e['tid']} at ts {e['ts']}")
if any(depth.values()):
    sys.exit(f"demo_threadx: unbalanced slices per track: {depth}")
running = sum(1 for e in events if e.get("ph") == "B" and e.get("name") == "running")
print(f"{sys.argv[1]}: valid JSON, {len(events)} trace events, tracks: {', '.join(sorted(names))}; "
      f"{running} running slices")
PY
echo
echo "Open https://ui.perfetto.dev -> 'Open trace file' -> $OUT/demo.json"
echo "(TraceX users can open $OUT/demo.trx directly; one timestamp tick = 1 microsecond.)"

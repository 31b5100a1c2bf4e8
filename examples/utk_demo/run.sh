#!/usr/bin/env bash
# μT-Kernel demo (make run): runs the scripted scenario on evtrace's host μT-Kernel with the DS hooks
# recorded in TXTB, then converts the trace for Perfetto. Writes out/utk.trx, out/utk.json (open in
# ui.perfetto.dev: task running slices, ISR slices "systick"/"adc", service slices "tk_wai_sem" ...)
# out/utk.pftrace (Perfetto protobuf) and out/utk_stats.txt (evtrace stats). Usage: examples/utk_demo/run.sh BUILD_DIR
# (outputs in out/ of the repository, or $EVT_DEMO_OUT)
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
BUILD="$(cd "$1" && pwd)"
cd "$(dirname "$0")/../.."          # the repository root: paths below are shown relative to it
OUT="${EVT_DEMO_OUT:-out}"
mkdir -p "$OUT"
"$BUILD/examples/utk_demo/utk_demo" "$OUT/utk.trx" "$OUT/utk_acct.json"
"$BUILD/evtrace" info "$OUT/utk.trx" | head -n 4
"$BUILD/evtrace" convert "$OUT/utk.trx" -o "$OUT/utk.json"
"$BUILD/evtrace" stats "$OUT/utk.trx" > "$OUT/utk_stats.txt"
# Perfetto protobuf as well (running slices on a CPU track, so a service call that blocks nests
# correctly); optional: only where the perfetto exporter is built.
if "$BUILD/evtrace" convert "$OUT/utk.trx" -o "$OUT/utk.pftrace" --to perfetto 2>/dev/null; then
    extra=", $OUT/utk.pftrace"
else
    extra=" (no perfetto exporter in this build: $OUT/utk.pftrace not written)"
fi
echo "utk demo: wrote $OUT/utk.trx, $OUT/utk.json (open in ui.perfetto.dev)${extra}, $OUT/utk_stats.txt"

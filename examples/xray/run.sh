#!/usr/bin/env bash
# XRay demo (make run): a clang -fxray-instrument program (3 threads) records with evtrace's XRay
# handler into out/xray.xray (FDR v5, readable by llvm-xray), then evtrace names its functions from
# the binary's own instrumentation map: out/xray_stats.txt (per-function durations, every thread),
# out/xray.json (Chrome trace). Usage: examples/xray/run.sh BUILD_DIR   (outputs in out/ of the repository, or $EVT_DEMO_OUT)
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
BUILD="$(cd "$1" && pwd)"
cd "$(dirname "$0")/../.."          # the repository root: paths below are shown relative to it
OUT="${EVT_DEMO_OUT:-out}"
DEMO="$BUILD/examples/xray/xray_demo"
if [ ! -x "$DEMO" ]; then
    echo "xray demo: $DEMO not built (needs clang)" >&2
    exit 1
fi
mkdir -p "$OUT"
EVT_XRAY_FILE="$OUT/xray.xray" XRAY_OPTIONS="patch_premain=true" "$DEMO" evtrace >/dev/null
"$BUILD/evtrace" info --instr-map "$DEMO" "$OUT/xray.xray" | sed -n '1,2p;7,9p'
"$BUILD/evtrace" stats --instr-map "$DEMO" "$OUT/xray.xray" > "$OUT/xray_stats.txt"
"$BUILD/evtrace" convert --instr-map "$DEMO" "$OUT/xray.xray" -o "$OUT/xray.json"
if command -v llvm-xray >/dev/null; then
    llvm-xray fdr-dump --verify "$OUT/xray.xray" >/dev/null && echo "llvm-xray fdr-dump --verify: OK"
fi
sed -n '/^Functions/,$p' "$OUT/xray_stats.txt"
echo "xray demo: wrote $OUT/xray.xray, $OUT/xray_stats.txt, $OUT/xray.json"

#!/usr/bin/env bash
# Runs every benchmark program built in the given build directory; each prints its own numbers.
set -euo pipefail
build=$1
shopt -s nullglob
# The machine the ratios were measured on: CPU model, cores, load (a loaded machine distorts the
# wall-clock figures; bench/instr.sh gives load-independent instruction counts).
cpu="$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)"
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
echo "bench: machine: CPU ${cpu:-$(uname -m)}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores, load average ${load:-?}"
for b in "$build"/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b"
done

#!/usr/bin/env bash
# Runs every benchmark program built in the given build directory; each prints its own numbers.
set -euo pipefail
build=$1
shopt -s nullglob
# The machine the ratios were measured on: CPU model, cores, load (a loaded machine distorts the
# wall-clock figures; bench/instr.sh gives load-independent instruction counts). A VM's model name
# can be generic ("Intel(R) Xeon(R) Processor"): the family, model and stepping name the core.
cpu="$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)"
fms="$(awk -F': *' '/^cpu family/ && !f {f = $2} /^model[ \t]*:/ && !m {m = $2} /^stepping/ && !s {s = $2}
      END {if (f != "") printf "family %s model %s stepping %s", f, m, s}' /proc/cpuinfo 2>/dev/null || true)"
[ -n "$fms" ] && cpu="${cpu:+$cpu }($fms)"
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
echo "bench: machine: CPU ${cpu:-$(uname -m)}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores, load average ${load:-?}"
for b in "$build"/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b"
done

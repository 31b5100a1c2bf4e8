#!/usr/bin/env bash
# Deepens the stored fuzz corpora (a maintainer's tool; make check never runs it): fuzzes each
# target for SECONDS with new inputs in a scratch directory, then keeps only the inputs that reach
# coverage the target's stored corpus does not (libFuzzer -merge=1 with edge counters and value
# profiles off: one small input per new set of edges), and writes them into fuzz/corpus/<entry>/ as
# cov-<first 16 hex digits of their SHA-1> (fuzz/corpus/README.md). An input that crashes, leaks,
# times out or allocates past 256 MB is a finding: it goes to BUILD/fuzz-findings/ and nothing of
# that target is added. JOBS targets run side by side (default: the number of CPUs).
#   scripts/fuzz-corpus.sh BUILD SECONDS [JOBS [TARGET...]]   TARGET: an entry such as rkh
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD SECONDS [JOBS [TARGET...]]" >&2; exit 2; }
build=$1; secs=$2; jobs=${3:-$(nproc)}
shift $(($# < 3 ? $# : 3))
root=$(cd "$(dirname "$0")/.." && pwd)
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
limits=(-max_len=65536 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256) # scripts/fuzz.sh's
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
entries=("$@")
if [ ${#entries[@]} -eq 0 ]; then
  for t in "$build"/fuzz_*; do [ -x "$t" ] && [ -f "$t" ] && entries+=("$(basename "$t" | sed 's/^fuzz_//')"); done
fi
[ ${#entries[@]} -gt 0 ] || { echo "fuzz-corpus: no fuzz targets built in $build" >&2; exit 1; }

# One target: fuzz, merge into a copy of its corpus, add what the merge kept.
deepen() {
  local e=$1 t="$build/fuzz_$1" corpus="$root/fuzz/corpus/$1" w="$work/$1" dict=() f h n=0 a
  [ -x "$t" ] || { echo "fuzz-corpus: $t not built" >&2; return 1; }
  mkdir -p "$w/finds" "$w/merged" "$w/art"
  cp "$corpus"/* "$w/merged/"
  [ -f "$root/fuzz/$e.dict" ] && dict=(-dict="$root/fuzz/$e.dict")
  if ! "$t" -max_total_time="$secs" "${limits[@]}" "${dict[@]}" -artifact_prefix="$w/art/" \
        "$w/finds" "$corpus" >"$w/fuzz.log" 2>&1 ||
     ! "$t" -merge=1 -use_counters=0 -use_value_profile=0 "${limits[@]}" -artifact_prefix="$w/art/" \
        "$w/merged" "$w/finds" >"$w/merge.log" 2>&1 ||
     [ -n "$(ls -A "$w/art")" ]; then
    tail -40 "$w/fuzz.log" "$w/merge.log" 2>/dev/null || true
    mkdir -p "$build/fuzz-findings"
    for a in "$w"/art/*; do [ -e "$a" ] && cp "$a" "$build/fuzz-findings/$e-$(basename "$a")"; done
    echo "fuzz-corpus: $e: a finding (kept in $build/fuzz-findings/); nothing added" >&2
    return 1
  fi
  for f in "$w"/merged/*; do
    [ -e "$corpus/$(basename "$f")" ] && continue # a stored input, copied in above
    h=$(sha1sum <"$f" | cut -c1-16)
    cp "$f" "$corpus/cov-$h"
    n=$((n + 1))
  done
  echo "fuzz-corpus: $e: $n inputs added ($(grep -Eo '[0-9]+ new coverage edges' "$w/merge.log" || echo '0 new coverage edges'))"
}

failed=0
running=0
for e in "${entries[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n || failed=1; running=$((running - 1)); fi
  deepen "$e" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done
exit "$failed"

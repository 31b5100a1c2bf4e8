#!/usr/bin/env bash
# Replays every fuzz target's stored corpus (fuzz/corpus/<entry>/, including the crash inputs kept
# there), then fuzzes each target for SECONDS (default 10), with fuzz/<entry>.dict as its dictionary
# when present. New inputs go to a scratch directory, never into the repository; a finding is
# copied to BUILD/fuzz-findings/ and fails the run. JOBS targets run side by side (default: the
# number of CPUs; each is one process on one core for SECONDS), their output printed per target
# as each ends.
#   scripts/fuzz.sh BUILD [SECONDS [JOBS]]
set -euo pipefail
build=$1; secs=${2:-10}; jobs=${3:-$(nproc)}
root=$(cd "$(dirname "$0")/.." && pwd)
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
shopt -s nullglob
targets=("$build"/fuzz_*)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no fuzz targets built in $build" >&2; exit 1; }
findings="$build/fuzz-findings"
start=$SECONDS
# One target: replay, then fuzz; its lines on stdout/stderr (the caller keeps them per target).
fuzz_one() {
  local t=$1 name entry corpus files dict scratch a
  name=$(basename "$t"); entry=${name#fuzz_}
  corpus="$root/fuzz/corpus/$entry"
  files=("$corpus"/*)
  [ ${#files[@]} -gt 0 ] || { echo "fuzz: $name has no corpus in fuzz/corpus/$entry" >&2; return 1; }
  dict=(); [ -f "$root/fuzz/$entry.dict" ] && dict=(-dict="$root/fuzz/$entry.dict")
  scratch=$(mktemp -d)
  echo "fuzz: $name: replaying ${#files[@]} corpus files, then ${secs}s of fuzzing"
  # Replay: every stored input (seeds, finds, past crashes) must run clean.
  "$t" -runs=0 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -artifact_prefix="$scratch/" "$corpus" >"$scratch/replay.log" 2>&1 \
    || { tail -60 "$scratch/replay.log"; echo "fuzz: $name: a stored input fails" >&2; return 1; }
  if ! "$t" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -print_final_stats=1 "${dict[@]}" \
        -artifact_prefix="$scratch/" "$scratch" "$corpus" >"$scratch/fuzz.log" 2>&1; then
    tail -60 "$scratch/fuzz.log"
    mkdir -p "$findings"
    for a in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-*; do
      cp "$a" "$findings/$entry-$(basename "$a")"
      echo "fuzz: $name: finding kept as $findings/$entry-$(basename "$a") (add it to fuzz/corpus/$entry/ once fixed)" >&2
    done
    return 1
  fi
  grep -E "stat::number_of_executed_units" "$scratch/fuzz.log" | sed "s/^/fuzz: $name: /"
  rm -rf "$scratch"
}

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
declare -A pid_name=()
failed=0
# Wait for one running target; print its lines; note a failure.
reap() {
  local pid rc=0 name
  wait -n -p pid || rc=$?
  name=${pid_name[$pid]}
  unset "pid_name[$pid]"
  cat "$logs/$name.log"
  if [ "$rc" -ne 0 ]; then echo "fuzz: $name failed (exit $rc)" >&2; failed=1; fi
}
for t in "${targets[@]}"; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  while [ ${#pid_name[@]} -ge "$jobs" ]; do reap; done
  [ "$failed" -eq 0 ] || break
  name=$(basename "$t")
  fuzz_one "$t" >"$logs/$name.log" 2>&1 &
  pid_name[$!]=$name
done
while [ ${#pid_name[@]} -gt 0 ]; do reap; done
[ "$failed" -eq 0 ] || exit 1
echo "fuzz: ${#targets[@]} targets replayed and fuzzed in $((SECONDS - start))s, $jobs at a time"

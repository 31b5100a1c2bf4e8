#!/usr/bin/env bash
# Replays each fuzz target's stored corpus (fuzz/corpus/<reader>/) and then fuzzes it for a few
# seconds. New inputs go to a scratch directory, never into the repository.
set -euo pipefail
build=$1; secs=${2:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
targets=("$build"/fuzz_*)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no fuzz targets built in $build" >&2; exit 1; }
for t in "${targets[@]}"; do
  [ -x "$t" ] || continue
  name=$(basename "$t"); reader=${name#fuzz_}
  corpus="$root/fuzz/corpus/$reader"
  scratch=$(mktemp -d)
  echo "fuzz: $name: replaying $(ls "$corpus" 2>/dev/null | wc -l) corpus files, then ${secs}s of fuzzing"
  "$t" -runs=0 "$corpus" >"$scratch/replay.log" 2>&1 || { cat "$scratch/replay.log"; exit 1; }
  "$t" -max_total_time="$secs" -max_len=65536 -print_final_stats=1 "$scratch" "$corpus" >"$scratch/fuzz.log" 2>&1 \
    || { tail -50 "$scratch/fuzz.log"; exit 1; }
  grep -E "stat::number_of_executed_units" "$scratch/fuzz.log" | sed "s/^/fuzz: $name: /"
  rm -rf "$scratch"
done

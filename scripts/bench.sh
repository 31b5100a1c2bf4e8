#!/usr/bin/env bash
# Runs every benchmark program built in the given build directory; each prints its own numbers.
set -euo pipefail
build=$1
shopt -s nullglob
for b in "$build"/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b"
done

#!/usr/bin/env bash
# make run: runs every examples/*/run.sh BUILD_DIR in name order (each demo adds its own folder).
# Stops at the first demo that fails and exits with its status.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
BUILD="$(cd "$1" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"
shopt -s nullglob
demos=("$HERE"/*/run.sh)
if [ ${#demos[@]} -eq 0 ]; then
    echo "run-demo: no examples/*/run.sh found" >&2
    exit 1
fi
for d in "${demos[@]}"; do
    name="$(basename "$(dirname "$d")")"
    echo "=== demo: $name ==="
    if ! bash "$d" "$BUILD"; then
        echo "run-demo: demo '$name' failed" >&2
        exit 1
    fi
    echo
done

#!/usr/bin/env bash
# Instructions per record of each bench_instr subject (callgrind: load-independent, unlike the
# wall-clock ratios of the other benchmarks). Usage: bash bench/instr.sh BUILD_DIR [SUBJECT...]
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 BUILD_DIR [SUBJECT...]" >&2
    exit 2
fi
prog="$1/bench_instr"
shift
[ -x "$prog" ] || { echo "instr.sh: $prog not built" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "instr.sh: valgrind not found" >&2; exit 1; }
[ $# -gt 0 ] || set -- base txtb rkh-stream rkh-flight etw etw-owned etw-file utk utk-filtered
N=100000 # records per loop: N in bench/bench_instr.c
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for s in "$@"; do
    p="$prog"
    case "$s" in
        user-*) fn="instr_loop_user_${s#user-}"; p="$(dirname "$prog")/bench_user" ;; # bench/bench_user.c
        rkh-*) fn=instr_loop_rkh ;;
        etw-*) fn=instr_loop_etw ;;
        utk*) fn=instr_loop_utk ;;
        *) fn="instr_loop_$s" ;;
    esac
    valgrind --tool=callgrind --callgrind-out-file="$out/$s" --toggle-collect="$fn" "$p" "$s" >/dev/null 2>&1
    ir="$(callgrind_annotate "$out/$s" | awk '/PROGRAM TOTALS/ && !done {gsub(",", "", $1); print $1; done = 1}')"
    unit=record
    case "$s" in utk*) unit="svc enter+leave pair" ;; user-ipair) unit="begin+end pair" ;; user-*) unit=call ;; esac
    awk -v s="$s" -v ir="$ir" -v n="$N" -v u="$unit" 'BEGIN {printf "bench: instr: %s: %.1f instr per %s\n", s, ir / n, u}'
done

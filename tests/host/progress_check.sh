#!/usr/bin/env bash
# Progress line test: on a terminal (a pty from script(1)) a long run draws "\revtrace stats: ..."
# on stderr and erases it at the end; without a terminal, or with -q, nothing is drawn.
set -euo pipefail
evtrace=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'evtrace-synthetic 1\nevents 1000000\nthreads 8\n' >"$tmp/mid.syn"
printf 'evtrace-synthetic 1\nevents 3000000\nthreads 8\nhz 1000000\n' >"$tmp/big.syn"
command -v script >/dev/null || { echo "FAIL: script(1) missing (bsdutils)"; exit 1; }
EVT_PROGRESS_AFTER_MS=0 script -qec "$evtrace stats $tmp/big.syn >/dev/null" /dev/null >"$tmp/tty.txt"
grep -q $'\revtrace stats: [0-9.]*[kMG]* events' "$tmp/tty.txt" || { echo "FAIL: no progress line on a tty"; cat -A "$tmp/tty.txt" | head -5; exit 1; }
grep -q $'\r\033\\[K' "$tmp/tty.txt" || { echo "FAIL: progress line not erased"; exit 1; }
"$evtrace" stats "$tmp/mid.syn" >/dev/null 2>"$tmp/pipe.txt"
if grep -q $'\r' "$tmp/pipe.txt"; then echo "FAIL: progress drawn although stderr is not a terminal"; exit 1; fi
EVT_PROGRESS=1 "$evtrace" convert -q "$tmp/mid.syn" -o "$tmp/out.pftrace" 2>"$tmp/q.txt"
if grep -q $'\r' "$tmp/q.txt"; then echo "FAIL: progress drawn with -q"; exit 1; fi
EVT_PROGRESS=1 "$evtrace" convert "$tmp/mid.syn" -o "$tmp/out.pftrace" 2>"$tmp/f.txt"
grep -q $'\revtrace convert: ' "$tmp/f.txt" || { echo "FAIL: convert draws no progress"; exit 1; }
echo "progress: ok"

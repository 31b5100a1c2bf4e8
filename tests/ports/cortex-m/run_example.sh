#!/usr/bin/env bash
# CTest driver of ports/cortexm_example: generate the firmware kit, build the Cortex-M example from
# the kit alone (snapshot and live builds), then run both under QEMU and check the three ways off
# the target (check_example.py). Every missing tool is a failure, never a skip.
# Usage: run_example.sh SOURCE_DIR WORK_DIR EVTRACE
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SOURCE_DIR WORK_DIR EVTRACE" >&2; exit 2; }
SRC="$1"; WORK="$2"; EVTRACE="$3"
for tool in arm-none-eabi-gcc qemu-system-arm gdb-multiarch python3 make timeout; do
    command -v "$tool" >/dev/null 2>&1 || { echo "FAIL: '$tool' not installed (bash scripts/deps.sh check)" >&2; exit 1; }
done
rm -rf "$WORK"
mkdir -p "$WORK"
bash "$SRC/scripts/firmware-kit.sh" "$WORK/kit"
# evtrace_config.h: shipped defaults compile; impossible settings stop the build with its #error.
KIT="$WORK/kit/evtrace"
cfg_cc() { printf '#include "evtrace_config.h"\n#include "evtrace/hooks.h"\n' |
    arm-none-eabi-gcc -std=c99 -fsyntax-only -I"$KIT" -I"$KIT/include" -DEVT_CFG_USER_HEADER='"evtrace_config.h"' "$@" -x c - 2>&1; }
cfg_cc >/dev/null || { echo "FAIL: the kit's evtrace_config.h does not compile with its defaults" >&2; exit 1; }
for bad in "-DEVT_CFG_STREAM=2|EVT_CFG_STREAM must be 0" "-DEVT_CFG_RKH_RING_SIZE=10u|EVT_CFG_RKH_RING_SIZE must be" \
           "-DEVT_CFG_TXTB_BUFFER_SIZE=100u|holds fewer than 8 events" "-DEVT_CFG_TXTB_REGISTRY_ENTRIES=0u|at least 1"; do
    if out="$(cfg_cc "${bad%%|*}")" || ! grep -q "${bad#*|}" <<<"$out"; then
        echo "FAIL: evtrace_config.h accepted ${bad%%|*} (or said something else: $out)" >&2; exit 1
    fi
    echo "ok   evtrace_config.h rejects ${bad%%|*}: #error \"${bad#*|}...\""
done
# The example sees only the kit (and its own folder): no include path into the repository.
make -s -C "$SRC/examples/cortex-m" OUT="$WORK" KIT="$WORK/kit/evtrace"
arm-none-eabi-size "$WORK/app_snapshot.elf" "$WORK/app_live.elf"
python3 "$SRC/tests/ports/cortex-m/check_example.py" "$WORK" "$EVTRACE" "$SRC"

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
# The example sees only the kit (and its own folder): no include path into the repository.
make -s -C "$SRC/examples/cortex-m" OUT="$WORK" KIT="$WORK/kit/evtrace"
arm-none-eabi-size "$WORK/app_snapshot.elf" "$WORK/app_live.elf"
python3 "$SRC/tests/ports/cortex-m/check_example.py" "$WORK" "$EVTRACE" "$SRC"

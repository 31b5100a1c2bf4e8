#!/usr/bin/env bash
# CTest driver of ports/cortexm_qemu: build the Cortex-M harness, run it under QEMU with
# semihosting, turn its hex dump into target.trx, record the same script on the host (host.trx),
# then check with evtrace that the target buffer decodes to the expected events and equals the
# host one byte for byte. Every missing tool is a failure.
# Usage: run_cortexm.sh SOURCE_DIR WORK_DIR EVTRACE CORTEXM_TWIN
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 SOURCE_DIR WORK_DIR EVTRACE CORTEXM_TWIN" >&2; exit 2; }
SRC="$1"; WORK="$2"; EVTRACE="$3"; TWIN="$4"
HERE="$SRC/tests/ports/cortex-m"

for tool in arm-none-eabi-gcc arm-none-eabi-size qemu-system-arm python3 timeout; do
    command -v "$tool" >/dev/null 2>&1 || { echo "FAIL: '$tool' not installed (bash scripts/deps.sh)" >&2; exit 1; }
done
rm -rf "$WORK"
mkdir -p "$WORK"

bash "$SRC/scripts/build-cortex-m.sh" "$WORK/build"

# Semihosting output goes to a file chardev (with -nographic it would go to the terminal).
set +e
timeout 60 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -nographic -monitor none -serial none \
    -chardev file,id=sh0,path="$WORK/qemu.out" -semihosting-config enable=on,target=native,chardev=sh0 \
    -kernel "$WORK/build/cortexm_txtb.elf" 2>"$WORK/qemu.err"
rc=$?
set -e
[ -f "$WORK/qemu.out" ] && sed '/^EVT-TXTB-BEGIN/,/^EVT-TXTB-END/d' "$WORK/qemu.out"
if [ $rc -ne 0 ]; then
    echo "FAIL: the harness exited with status $rc under QEMU (124 = timeout)" >&2
    cat "$WORK/qemu.err" >&2
    exit 1
fi

"$TWIN" "$WORK/host.trx"
python3 "$HERE/check_cortexm.py" "$WORK/qemu.out" "$WORK/target.trx" "$WORK/host.trx" "$EVTRACE"

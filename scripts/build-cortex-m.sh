#!/usr/bin/env bash
# Freestanding Cortex-M4 build of the recorder (make cortex-m): compiles src/core/*.c,
# src/formats/*/*_enc.c, src/kernel/*/*.c and the cortex-m port with arm-none-eabi-gcc
# -ffreestanding, prints the code size per object and in total, then links a tiny image with
# -nostdlib (no libc, no startup files) to prove nothing pulls in libc: that image is the QEMU test
# harness of tests/ports/cortex-m (vector table, startup, semihosting) plus every recorder object,
# so the image the test runs is the image proven libc-free. libgcc (compiler helpers, not libc) is
# allowed; the helpers it contributes are listed.
#
# Usage: scripts/build-cortex-m.sh BUILD_DIR      (outputs in BUILD_DIR: obj/, *.elf, *.map)
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$1"
OUT="$(cd "$1" && pwd)"
CROSS="${EVT_CROSS:-arm-none-eabi-}"
CC="${CROSS}gcc"
SIZE="${CROSS}size"

for tool in "$CC" "$SIZE"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build-cortex-m: '$tool' not found (install gcc-arm-none-eabi: bash scripts/deps.sh)" >&2
        exit 1
    fi
done

# -fno-tree-loop-distribute-patterns: GCC would otherwise turn hand-written fill/copy loops into
# memset/memcpy calls, which a libc-free target does not have.
CFLAGS=(-mcpu=cortex-m4 -mthumb -Os -ffreestanding -nostdlib -std=c99 -fno-tree-loop-distribute-patterns
        -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
        -Wno-missing-field-initializers
        -I"$ROOT/include" -I"$ROOT/src" -I"$ROOT/src/ports/cortex-m")

shopt -s nullglob
cd "$ROOT"
REC_SRC=(src/core/*.c src/formats/*/*_enc.c src/kernel/*/*.c src/transport/*.c src/ports/cortex-m/*.c)
shopt -u nullglob
HARNESS_SRC=(tests/ports/cortex-m/cm_startup.c tests/ports/cortex-m/cm_semihost.c tests/ports/cortex-m/cm_main.c)
if [ ${#REC_SRC[@]} -eq 0 ]; then
    echo "build-cortex-m: no recorder sources found" >&2
    exit 1
fi

mkdir -p "$OUT/obj"
obj_of() { echo "$OUT/obj/${1%.c}.o"; }
compile() {
    local obj
    obj="$(obj_of "$1")"
    mkdir -p "$(dirname "$obj")"
    "$CC" "${CFLAGS[@]}" -c "$1" -o "$obj"
}

REC_OBJ=()
for s in "${REC_SRC[@]}"; do compile "$s"; REC_OBJ+=("$(obj_of "$s")"); done
HARNESS_OBJ=()
for s in "${HARNESS_SRC[@]}"; do compile "$s"; HARNESS_OBJ+=("$(obj_of "$s")"); done

echo "== Cortex-M4 recorder code size (arm-none-eabi-gcc -Os -mthumb, bytes) =="
(cd "$OUT/obj" && "$SIZE" -t "${REC_OBJ[@]#"$OUT/obj/"}")
# Core + each format, as an application using only that front end would link it: the format's
# encoder, the port, and the core objects that define a symbol the encoder uses (nm), so a core
# file a format does not call is not counted against it. "core + TXTB" is the figure that must not
# grow (issue: recorder core).
NM="${CROSS}nm"
CORE_OBJ=(); PORT_OBJ=()
for o in "${REC_OBJ[@]}"; do
    case "$o" in */src/core/*) CORE_OBJ+=("$o") ;; */ports/cortex-m/*) PORT_OBJ+=("$o") ;; esac
done
format_size() { # label, encoder objects...
    local label=$1; shift
    local objs=("$@" "${PORT_OBJ[@]}") undef c
    undef="$("$NM" -u "$@" "${PORT_OBJ[@]}" | awk '{print $NF}' | sort -u)"
    for c in "${CORE_OBJ[@]}"; do
        if "$NM" --defined-only "$c" | awk '{print $NF}' | grep -qxF -f <(printf '%s\n' "$undef"); then objs+=("$c"); fi
    done
    local line
    line="$("$SIZE" -t "${objs[@]}" | awk -v l="$label" -v n="${#objs[@]}" \
        '/TOTALS/ {printf "%-40s text %6d  bss %5d  (%d objects)\n", l, $1, $3, n}')"
    echo "$line"
    LAST_TEXT="$(echo "$line" | sed -E 's/.* text +([0-9]+) .*/\1/')"
}
echo "== core + each format (encoder + port + the core objects it uses) =="
o() { echo "$OUT/obj/$1"; }
# The plain recorder without the user-record insert (evtrace/user.h's carrier, EVT_TX_USER_RECORDS):
# that is the figure that must not grow; the default build (with it) is measured below.
"$CC" "${CFLAGS[@]}" -DEVT_TX_USER_RECORDS=0 -c src/formats/threadx/txtb_enc.c -o "$OUT/obj/txtb_enc_plain.o"
format_size "core + TXTB (evt_tx_*)" "$OUT/obj/txtb_enc_plain.o"
# The bound: core + TXTB as it was when the recorder core was asked for (2612 B).
TXTB_TEXT_MAX=2612
if [ "$LAST_TEXT" -gt "$TXTB_TEXT_MAX" ]; then
    echo "build-cortex-m: core + TXTB is $LAST_TEXT B of text, more than $TXTB_TEXT_MAX B: it must not grow" >&2
    exit 1
fi
format_size "core + TXTB with user records" "$(o src/formats/threadx/txtb_enc.o)"
format_size "core + TXTB + user events (user.h)" "$(o src/formats/threadx/txtb_enc.o)" "$(o src/formats/threadx/txtb_user_enc.o)" "$(o src/formats/user/user_enc.o)"
format_size "core + TXTB + generic hooks" "$(o src/formats/threadx/txtb_enc.o)" "$(o src/formats/threadx/txtb_hooks_enc.o)"
format_size "core + TXTB + hooks + uT-Kernel adapter" "$(o src/formats/threadx/txtb_enc.o)" "$(o src/formats/threadx/txtb_hooks_enc.o)" "$(o src/kernel/utk/utk_adapter.o)"
format_size "core + RKH (evt_rkh_*)" "$(o src/formats/rkh/rkh_enc.o)"
format_size "core + ETW (evt_etw_*)" "$(o src/formats/etw/etw_enc.o)"
format_size "core + XRay (evt_xray_*)" "$(o src/formats/xray/xray_enc.o)"
# The RTT up-buffer transport alone (include/evtrace/rtt.h): it uses no core object. Bound: 500 B.
RTT_TEXT="$("$SIZE" "$(o src/transport/rtt.o)" | awk 'NR == 2 {print $1}')"
printf '%-40s text %6d\n' "RTT transport alone (evt_rtt_*)" "$RTT_TEXT"
RTT_TEXT_MAX=500
if [ "$RTT_TEXT" -gt "$RTT_TEXT_MAX" ]; then
    echo "build-cortex-m: the RTT transport is $RTT_TEXT B of text, more than $RTT_TEXT_MAX B" >&2
    exit 1
fi
format_size "core + RKH + RTT transport" "$(o src/formats/rkh/rkh_enc.o)" "$(o src/transport/rtt.o)"
# Kept for scripts that read it: the TXTB line in its old form.
format_size "TXTB recorder (core + TXTB encoder + port)" "$(o src/formats/threadx/txtb_enc.o)"

# The libc-free link: every object is named on the command line (no archive, no --gc-sections),
# so an undefined memcpy/memset/printf/... anywhere fails the link.
ELF="$OUT/cortexm_txtb.elf"
if ! "$CC" "${CFLAGS[@]}" -nostartfiles -T tests/ports/cortex-m/mps2_an386.ld \
    -Wl,-Map,"$OUT/cortexm_txtb.map" -Wl,--cref \
    "${HARNESS_OBJ[@]}" "${REC_OBJ[@]}" -lgcc -o "$ELF" 2>"$OUT/link.err"; then
    cat "$OUT/link.err" >&2
    echo "build-cortex-m: FAILED: the no-libc link has undefined symbols (libc calls such as memset/memcpy" >&2
    echo "  are often emitted by the compiler for struct copies or '= {0}' on large objects):" >&2
    grep -oE "[^ /]+\.o: in function|undefined reference to \`[^']+'" "$OUT/link.err" |
        awk '/in function/ {obj=$1; sub(/:$/, "", obj)} /undefined/ {gsub(/undefined reference to ./,""); gsub(/.$/,""); print "  " $0 "  <- " obj}' |
        sort -u >&2
    exit 1
fi
if grep -qE '/libc\.a|/libc_nano\.a|/libg\.a|/libnosys\.a' "$OUT/cortexm_txtb.map"; then
    echo "build-cortex-m: the image pulled in a C library:" >&2
    grep -E '/libc\.a|/libc_nano\.a|/libg\.a|/libnosys\.a' "$OUT/cortexm_txtb.map" >&2
    exit 1
fi
# libgcc helpers asked for by our own objects: "symbol (object)", from the map's archive section.
helpers="$(sed -n '/^Archive member included/,/^Memory Configuration/p' "$OUT/cortexm_txtb.map" |
    grep -E '^ +[^ ]+\.o \(' | grep -v 'libgcc\.a' |
    sed -E 's|^ +.*/([^/]+\.o) \((.*)\)$|\2 (\1)|' | sort -u | paste -sd, - || true)"
echo "== no-libc link: OK ($ELF, -nostdlib; libgcc helpers used: ${helpers:-none}) =="
"$SIZE" "$ELF"

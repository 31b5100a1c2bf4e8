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
REC_SRC=(src/core/*.c src/formats/*/*_enc.c src/kernel/*/*.c src/ports/cortex-m/*.c)
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
# The TXTB recorder alone, as an application using only it would link it: core + TXTB encoder + port.
TXTB_OBJ=()
for o in "${REC_OBJ[@]}"; do
    case "$o" in */src/core/*|*/threadx/txtb_enc.o|*/threadx/txtb_*_enc.o|*/ports/cortex-m/*)
        [ "${o##*/}" = txtb_hooks_enc.o ] || TXTB_OBJ+=("$o") ;;
    esac
done
"$SIZE" -t "${TXTB_OBJ[@]}" | awk -v n="${#TXTB_OBJ[@]}" \
    '/TOTALS/ {printf "TXTB recorder (core + TXTB encoder + port, %d objects): text %d, data %d, bss %d bytes\n", n, $1, $2, $3}'

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

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
# file a format does not call is not counted against it. The rows with targets are in
# scripts/footprint.def (the table at the end).
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
echo "== core + each format, other configurations (encoder + port + the core objects it uses) =="
o() { echo "$OUT/obj/$1"; }
"$CC" "${CFLAGS[@]}" -DEVT_TX_USER_RECORDS=0 -c src/formats/threadx/txtb_enc.c -o "$OUT/obj/txtb_enc_plain.o"
format_size "core + TXTB, default, no user records" "$OUT/obj/txtb_enc_plain.o"
format_size "core + TXTB, default build" "$(o src/formats/threadx/txtb_enc.o)"
format_size "core + TXTB + user events (user.h)" "$(o src/formats/threadx/txtb_enc.o)" "$(o src/formats/threadx/txtb_user_enc.o)" "$(o src/formats/user/user_enc.o)"
format_size "core + TXTB + generic hooks" "$(o src/formats/threadx/txtb_enc.o)" "$(o src/formats/threadx/txtb_hooks_enc.o)"
format_size "core + TXTB + hooks + uT-Kernel adapter" "$(o src/formats/threadx/txtb_enc.o)" "$(o src/formats/threadx/txtb_hooks_enc.o)" "$(o src/kernel/utk/utk_adapter.o)"
format_size "core + RKH, default build" "$(o src/formats/rkh/rkh_enc.o)"
format_size "core + RKH + RTT transport" "$(o src/formats/rkh/rkh_enc.o)" "$(o src/transport/rtt.o)"
# The RTT up-buffer transport alone (include/evtrace/rtt.h): it uses no core object. Bound: 500 B.
RTT_TEXT="$("$SIZE" "$(o src/transport/rtt.o)" | awk 'NR == 2 {print $1}')"
printf '%-40s text %6d\n' "RTT transport alone (evt_rtt_*)" "$RTT_TEXT"
RTT_TEXT_MAX=500
if [ "$RTT_TEXT" -gt "$RTT_TEXT_MAX" ]; then
    echo "build-cortex-m: the RTT transport is $RTT_TEXT B of text, more than $RTT_TEXT_MAX B" >&2
    exit 1
fi

# The targets (scripts/footprint.def): each row's encoders compiled with its switches, measured as
# above, printed as one table; a row past its target fails the build when it is enforced.
DEF="$ROOT/scripts/footprint.def"
trim() { local v="$*"; v="${v#"${v%%[![:space:]]*}"}"; echo "${v%"${v##*[![:space:]]}"}"; }
TABLE=(); OVER=(); NOTES=()
while IFS='|' read -r key target enforce srcs defs label; do
    key="$(trim "$key")"
    case "$key" in ''|'#'*) continue ;; esac
    target="$(trim "$target")"; enforce="$(trim "$enforce")"; label="$(trim "$label")"
    read -r -a src_list <<<"$srcs"
    read -r -a def_list <<<"$defs"
    objs=()
    for s in "${src_list[@]}"; do
        obj="$OUT/obj/footprint/$key/$(basename "${s%.c}").o"
        mkdir -p "$(dirname "$obj")"
        "$CC" "${CFLAGS[@]}" "${def_list[@]}" -c "$s" -o "$obj"
        objs+=("$obj")
    done
    format_size "$label" "${objs[@]}" >/dev/null
    status="ok"
    if [ "$LAST_TEXT" -gt "$target" ]; then
        if [ "$enforce" = 1 ]; then status="OVER"; OVER+=("$label: $LAST_TEXT B > $target B"); else status="over (not enforced)"; fi
    fi
    TABLE+=("$(printf '| %-48s | %6d | %6d | %-19s |' "$label" "$LAST_TEXT" "$target" "$status")")
    if [ -n "$(trim "$defs")" ]; then NOTES+=("$label: $(trim "$defs")"); fi
done <"$DEF"

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

# The footprint table last, after the link, so that its verdict is the script's last word.
echo "== Cortex-M4 footprint against scripts/footprint.def (text bytes) =="
printf '| %-48s | %6s | %6s | %-19s |\n' "recorder" "text" "target" "status"
for line in "${TABLE[@]}"; do echo "$line"; done
for m in "${NOTES[@]}"; do echo "  switches of $m"; done
if [ ${#OVER[@]} -gt 0 ]; then
    for m in "${OVER[@]}"; do echo "build-cortex-m: past its target: $m" >&2; done
    exit 1
fi

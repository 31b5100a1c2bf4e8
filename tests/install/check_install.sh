#!/usr/bin/env bash
# Install test (tests/install/install.cmake). Three modes:
#   full SRC BUILD WORK CC GEN       cmake --install BUILD into WORK/prefix; every installed header
#                                    compiles alone against the prefix; nothing installed names the
#                                    source tree; the two consumers build with find_package AND with
#                                    pkg-config, the recorder ones write a TXTB trace, the host ones
#                                    read each other's traces, and the installed `evtrace` reads it.
#   recorder-only SRC WORK CC GEN EVTRACE
#                                    configures SRC with EVT_BUILD_HOST=OFF and SQLite made unfindable
#                                    (CMAKE_DISABLE_FIND_PACKAGE_SQLite3), builds and installs it: no
#                                    command, no host library; the recorder consumer builds both ways
#                                    and EVTRACE (the build's own command) reads its trace; asking
#                                    for the host component fails.
#   subdirectory SRC WORK CC GEN EVTRACE both|recorder-only
#                                    the parent project consumer_subdir/ does add_subdirectory(SRC)
#                                    with evtrace's default options (both: host half on; recorder-only:
#                                    set(EVT_BUILD_HOST OFF) first, SQLite made unfindable) and links
#                                    evtrace_rec, evtrace::recorder, evtrace_freertos (and evtrace::host,
#                                    evtrace_host); the parent configures (no tests, examples,
#                                    benchmarks or install rules of evtrace's), builds, its programs
#                                    record (the FreeRTOS one starts and stops a snapshot) and read
#                                    the traces back (EVTRACE reads them too); its install installs
#                                    nothing of evtrace's.
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "--- $*"; }

mode="$1"; shift
case "$mode" in
    full) [ $# -eq 5 ] || fail "usage: $0 full SRC BUILD WORK CC GEN"; SRC="$1" BUILD="$2" WORK="$3" CC="$4" GEN="$5" ;;
    recorder-only) [ $# -eq 5 ] || fail "usage: $0 recorder-only SRC WORK CC GEN EVTRACE"; SRC="$1" WORK="$2" CC="$3" GEN="$4" EVTRACE="$5" ;;
    subdirectory) [ $# -eq 6 ] || fail "usage: $0 subdirectory SRC WORK CC GEN EVTRACE both|recorder-only"
        SRC="$1" WORK="$2" CC="$3" GEN="$4" EVTRACE="$5" VARIANT="$6" ;;
    *) fail "unknown mode $mode" ;;
esac
CONSUMERS="$SRC/tests/install"
PREFIX="$WORK/prefix"
rm -rf "$WORK"
mkdir -p "$WORK"
command -v pkg-config >/dev/null || fail "pkg-config not installed (bash scripts/deps.sh run)"

# cmake_consumer NAME: configure + build tests/install/consumer_NAME against PREFIX -> its binary path
cmake_consumer() {
    local b="$WORK/cmake-$1"
    cmake -S "$CONSUMERS/consumer_$1" -B "$b" -G "$GEN" -DCMAKE_C_COMPILER="$CC" \
          -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$b.log" 2>&1 \
        || { cat "$b.log" >&2; fail "find_package consumer_$1 did not configure"; }
    cmake --build "$b" >>"$b.log" 2>&1 || { cat "$b.log" >&2; fail "find_package consumer_$1 did not build"; }
    echo "$b/consumer_$1"
}
# pc_consumer NAME MODULE: cc consumer_NAME.c with pkg-config MODULE -> its binary path
pc_consumer() {
    local out="$WORK/pc-consumer_$1" cflags libs
    cflags="$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags "$2")" || fail "pkg-config --cflags $2"
    libs="$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --libs "$2")" || fail "pkg-config --libs $2"
    # shellcheck disable=SC2086  # word splitting of the flags is intended
    "$CC" -std=c11 -Wall -Wextra -Werror $cflags -I"$CONSUMERS" "$CONSUMERS/consumer_$1/consumer_$1.c" \
          -o "$out" $libs || fail "pkg-config consumer_$1 did not build (cflags: $cflags; libs: $libs)"
    echo "$out"
}
expect_files() {
    for f in "$@"; do [ -e "$PREFIX/$f" ] || fail "not installed: $f"; done
}
# The installed tree must stand alone: nothing in it points back at the source or build tree.
check_no_tree_paths() {
    local hits
    hits="$(grep -rlF -e "$SRC" "$PREFIX/lib/cmake" "$PREFIX/lib/pkgconfig" "$PREFIX/include" 2>/dev/null || true)"
    [ -z "$hits" ] || fail "installed files name the source tree $SRC: $hits"
}
check_headers_alone() {
    local n=0
    for h in "$PREFIX"/include/evtrace/*.h; do
        printf '#include <evtrace/%s>\n' "$(basename "$h")" >"$WORK/hdr.c"
        "$CC" -std=c99 -Wall -Wextra -Werror -fsyntax-only -I"$PREFIX/include" "$WORK/hdr.c" \
            || fail "installed header $(basename "$h") does not compile alone against $PREFIX/include"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || fail "no header installed"
    echo "$n installed headers compile alone"
}

# user_events FILE: how many user events EVTRACE finds in FILE
user_events() {
    "$EVTRACE" dump --json "$1" | grep -c '"kind":"user"' || true
}

if [ "$mode" = subdirectory ]; then
    B="$WORK/build"
    opts=()
    if [ "$VARIANT" = recorder-only ]; then
        opts=(-DCONSUMER_RECORDER_ONLY=ON -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON)
    fi
    step "parent project: add_subdirectory($SRC), $VARIANT"
    cmake -S "$CONSUMERS/consumer_subdir" -B "$B" -G "$GEN" -DCMAKE_C_COMPILER="$CC" \
          -DEVTRACE_SOURCE_DIR="$SRC" "${opts[@]}" >"$WORK/configure.log" 2>&1 \
        || { cat "$WORK/configure.log" >&2; fail "the parent project did not configure"; }
    grep 'evtrace targets:' "$WORK/configure.log" || true
    cmake --build "$B" >"$WORK/build.log" 2>&1 || { tail -n 60 "$WORK/build.log" >&2; fail "the parent project did not build"; }
    for p in sub_recorder sub_recorder_alias; do
        "$B/$p" "$WORK/$p.trx" || fail "$p (linked with $([ $p = sub_recorder ] && echo evtrace_rec || echo evtrace::recorder)) failed"
        n="$(user_events "$WORK/$p.trx")"
        [ "$n" = 10 ] || fail "evtrace dump $p.trx: $n user events, expected 10"
    done
    "$B/sub_freertos" "$WORK/freertos.trx" || fail "sub_freertos (linked with evtrace_freertos) failed"
    n="$(user_events "$WORK/freertos.trx")"
    [ "$n" = 10 ] || fail "evtrace dump freertos.trx: $n user events, expected 10"
    "$EVTRACE" info "$WORK/freertos.trx" | grep -qi 'freertos' || fail "freertos.trx: no FreeRTOS kernel profile"
    if [ "$VARIANT" = both ]; then
        for h in sub_host sub_host_plain; do
            "$B/$h" "$WORK/sub_recorder.trx" || fail "$h could not read sub_recorder.trx back"
        done
        [ -x "$B/evtrace/evtrace" ] || fail "the subdirectory's evtrace command was not built"
        "$B/evtrace/evtrace" check "$WORK/sub_recorder_alias.trx" || fail "the subdirectory's evtrace check found errors"
    fi
    step "the parent's install installs nothing of evtrace's"
    cmake --install "$B" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "cmake --install"; }
    if [ -d "$WORK/prefix" ] && [ -n "$(find "$WORK/prefix" -type f)" ]; then
        fail "the parent's install installed evtrace files: $(find "$WORK/prefix" -type f | head -n 5)"
    fi
    echo "PASS: add_subdirectory(evtrace) ($VARIANT): configured without evtrace's tests, built, recorded, read back"
elif [ "$mode" = full ]; then
    step "cmake --install $BUILD --prefix $PREFIX"
    cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" || { cat "$WORK/install.log" >&2; fail "cmake --install"; }
    expect_files bin/evtrace lib/libevtrace_host.a lib/libevtrace_recorder.a include/evtrace/reader.h \
                 include/evtrace/txtb.h include/evtrace/port.h include/evtrace/evt_port_impl.h \
                 include/evtrace/etw_defs.h lib/cmake/evtrace/evtraceConfig.cmake \
                 lib/cmake/evtrace/evtraceConfigVersion.cmake lib/pkgconfig/evtrace.pc \
                 lib/pkgconfig/evtrace-recorder.pc share/man/man1/evtrace.1 \
                 share/bash-completion/completions/evtrace   # man page and completion (cmake/docs.cmake)
    for h in "$SRC"/include/evtrace/*.h; do expect_files "include/evtrace/$(basename "$h")"; done
    check_no_tree_paths
    check_headers_alone

    step "consumers with find_package(evtrace)"
    rec_cm="$(cmake_consumer recorder)"
    host_cm="$(cmake_consumer host)"
    step "consumers with pkg-config"
    rec_pc="$(pc_consumer recorder evtrace-recorder)"
    host_pc="$(pc_consumer host evtrace)"

    step "run: each recorder writes a trace, each host consumer reads both"
    "$rec_cm" "$WORK/cmake.trx" || fail "find_package consumer_recorder failed"
    "$rec_pc" "$WORK/pc.trx" || fail "pkg-config consumer_recorder failed"
    for h in "$host_cm" "$host_pc"; do
        for t in "$WORK/cmake.trx" "$WORK/pc.trx"; do
            "$h" "$t" || fail "$h could not read $t back"
        done
    done
    step "the installed evtrace reads it"
    info="$("$PREFIX/bin/evtrace" info "$WORK/cmake.trx")" || fail "installed evtrace info exited $?"
    echo "$info" | head -n 4
    echo "$info" | grep -q '^format: *threadx' || fail "installed evtrace info: no 'format: threadx' line"
    "$PREFIX/bin/evtrace" check "$WORK/pc.trx" || fail "installed evtrace check found errors"
    n="$("$PREFIX/bin/evtrace" dump --json "$WORK/pc.trx" | grep -c '"kind":"user"')" || true
    [ "$n" = 10 ] || fail "installed evtrace dump: $n user events, expected 10"
    echo "PASS: install, find_package and pkg-config consumers of both halves"
else
    step "recorder only: EVT_BUILD_HOST=OFF, SQLite made unfindable"
    cmake -S "$SRC" -B "$WORK/build" -G "$GEN" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DEVT_BUILD_HOST=OFF -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON >"$WORK/configure.log" 2>&1 \
        || { cat "$WORK/configure.log" >&2; fail "recorder-only configure"; }
    cmake --build "$WORK/build" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "recorder-only build"; }
    cmake --install "$WORK/build" --prefix "$PREFIX" >"$WORK/install.log" || fail "recorder-only install"
    expect_files lib/libevtrace_recorder.a include/evtrace/txtb.h include/evtrace/evt_port_impl.h \
                 lib/cmake/evtrace/evtraceConfig.cmake lib/pkgconfig/evtrace-recorder.pc
    for f in bin/evtrace lib/libevtrace_host.a lib/pkgconfig/evtrace.pc; do
        [ ! -e "$PREFIX/$f" ] || fail "recorder-only install has $f"
    done
    check_no_tree_paths
    check_headers_alone
    rec_cm="$(cmake_consumer recorder)"
    rec_pc="$(pc_consumer recorder evtrace-recorder)"
    "$rec_cm" "$WORK/cmake.trx" || fail "find_package consumer_recorder failed"
    "$rec_pc" "$WORK/pc.trx" || fail "pkg-config consumer_recorder failed"
    for t in "$WORK/cmake.trx" "$WORK/pc.trx"; do
        n="$("$EVTRACE" dump --json "$t" | grep -c '"kind":"user"')" || true
        [ "$n" = 10 ] || fail "evtrace dump $t: $n user events, expected 10"
    done
    if cmake -S "$CONSUMERS/consumer_host" -B "$WORK/cmake-host" -G "$GEN" -DCMAKE_C_COMPILER="$CC" \
             -DCMAKE_PREFIX_PATH="$PREFIX" >"$WORK/cmake-host.log" 2>&1; then
        fail "find_package(evtrace COMPONENTS host) succeeded on a recorder-only install"
    fi
    echo "PASS: recorder-only build without SQLite, installed and consumed both ways"
fi

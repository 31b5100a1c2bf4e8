#!/usr/bin/env bash
# TXTB buffers inside Intel HEX and S-record dumps decode exactly as the raw .trx (TraceX reads
# all three): binutils objcopy writes the dumps (an independent encoder), evtrace auto-detects
# them. Also: --base-address / --offset find a buffer that does not start the dump, and damaged
# dumps (bad checksum, odd digit count, missing end record) fail with the byte offset.
# Usage: check_memdump_cli.sh EVTRACE DATA_DIR WORK_DIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 EVTRACE DATA_DIR WORK_DIR" >&2; exit 2; }
EVT="$1"; DATA="$2"; WORK="$3"
command -v objcopy >/dev/null || { echo "FAIL: objcopy (binutils) not installed" >&2; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK"
fails=0
ok()   { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

for trx in "$DATA/threadx_real/nowrap_m32le.trx" "$DATA/threadx_tracex/demo_threadx.trx"; do
    name="$(basename "$trx" .trx)"
    "$EVT" dump --json "$trx" >"$WORK/$name.want" || { fail "$name: raw dump failed"; continue; }
    objcopy -I binary -O ihex --adjust-vma=0x20010000 "$trx" "$WORK/$name.hex"
    objcopy -I binary -O srec --adjust-vma=0x20010000 "$trx" "$WORK/$name.srec"
    for kind in hex srec; do
        if "$EVT" dump --json "$WORK/$name.$kind" >"$WORK/$name.$kind.got" 2>"$WORK/err" &&
            cmp -s "$WORK/$name.want" "$WORK/$name.$kind.got" && [ -s "$WORK/$name.want" ]; then
            ok "$name.$kind decodes identically to the .trx ($(wc -l <"$WORK/$name.want") events)"
        else
            fail "$name.$kind differs from the .trx: $(head -c 300 "$WORK/err")"
        fi
    done
    # the buffer 256 bytes into a RAM dump: by address in the HEX file, by offset in the raw dump
    { head -c 256 /dev/zero | tr '\0' 'U'; cat "$trx"; } >"$WORK/$name.ram.bin"
    objcopy -I binary -O ihex --adjust-vma=0x20000000 "$WORK/$name.ram.bin" "$WORK/$name.ram.hex"
    "$EVT" dump --json --base-address 0x20000100 "$WORK/$name.ram.hex" >"$WORK/got1" 2>"$WORK/err"
    cmp -s "$WORK/$name.want" "$WORK/got1" && ok "$name: --base-address 0x20000100 in a HEX RAM dump" ||
        fail "$name: --base-address: $(head -c 300 "$WORK/err")"
    "$EVT" dump --json --offset 256 "$WORK/$name.ram.bin" >"$WORK/got2" 2>"$WORK/err"
    cmp -s "$WORK/$name.want" "$WORK/got2" && ok "$name: --offset 256 in a raw RAM dump" ||
        fail "$name: --offset: $(head -c 300 "$WORK/err")"
    "$EVT" dump --json --offset 0x100 "$WORK/$name.ram.hex" >"$WORK/got3" 2>"$WORK/err"
    cmp -s "$WORK/$name.want" "$WORK/got3" && ok "$name: --offset 0x100 into a HEX image" ||
        fail "$name: --offset in a HEX image: $(head -c 300 "$WORK/err")"
done

# info names the container and where the trace starts (JSON keys container, image_address, file_offset)
"$EVT" info --json "$WORK/nowrap_m32le.srec" >"$WORK/info.json" 2>&1
grep -q '"container": "srec"' "$WORK/info.json" && grep -q '"image_address": 536936448' "$WORK/info.json" &&
    ok "info --json: container srec, image_address 0x20010000" || fail "info --json of a .srec: $(head -c 300 "$WORK/info.json")"
"$EVT" info --json --offset 256 "$WORK/nowrap_m32le.ram.bin" >"$WORK/info.json" 2>&1
grep -q '"container": "binary"' "$WORK/info.json" && grep -q '"file_offset": 256' "$WORK/info.json" &&
    ok "info --json: container binary, file_offset 256" || fail "info --json with --offset: $(head -c 300 "$WORK/info.json")"

# Damage. expect_err FILE EXIT PATTERN WHAT. A damaged dump opens nothing: exit 3 (unreadable at
# open, docs/json-contract.md), with the line and offset of the damage
expect_err() {
    "$EVT" info "$1" >/dev/null 2>"$WORK/err"
    rc=$?
    if [ $rc -eq "$2" ] && grep -qE "$3" "$WORK/err"; then ok "$4: exit $rc, $(head -c 160 "$WORK/err")"
    else fail "$4: exit $rc (want $2), stderr: $(head -c 300 "$WORK/err")"; fi
}
hex="$WORK/lf.hex" # objcopy ends lines with CRLF; the damaged copies are made from an LF copy
tr -d '\r' <"$WORK/nowrap_m32le.hex" >"$hex"
# line 3's checksum digit changed (the last two characters of the line are its checksum)
awk 'NR == 3 { c = substr($0, length($0), 1); $0 = substr($0, 1, length($0) - 1) (c == "0" ? "1" : "0") } { print }' \
    "$hex" >"$WORK/badsum.hex"
off=$(( $(head -n 2 "$hex" | wc -c) + $(sed -n 3p "$hex" | wc -c) - 3 ))
expect_err "$WORK/badsum.hex" 3 "offset $off \(0x[0-9a-f]+\): line 3: checksum" "ihex bad checksum at offset $off"
sed '4s/.$//' "$hex" >"$WORK/odd.hex"
expect_err "$WORK/odd.hex" 3 "line 4: odd number of hex digits" "ihex odd digit count"
grep -v '^:00000001FF' "$hex" >"$WORK/noeof.hex"
expect_err "$WORK/noeof.hex" 3 "offset $(wc -c <"$WORK/noeof.hex") .*missing end-of-file record" "ihex missing EOF record"
srec="$WORK/lf.srec"
tr -d '\r' <"$WORK/nowrap_m32le.srec" >"$srec"
grep -v '^S[789]' "$srec" >"$WORK/noend.srec"
expect_err "$WORK/noend.srec" 3 "missing termination record" "srec missing S7/S8/S9"
awk 'NR == 5 { $0 = substr($0, 1, 12) (substr($0, 13, 1) == "A" ? "B" : "A") substr($0, 14) } { print }' "$srec" >"$WORK/bad.srec"
expect_err "$WORK/bad.srec" 3 "line 5: checksum" "srec flipped data digit caught by the checksum"
expect_err "$WORK/nowrap_m32le.ram.hex" 3 "" "a HEX RAM dump of 256 filler bytes then the buffer is not a trace at its start"
"$EVT" info --base-address 0x10 "$DATA/threadx_real/nowrap_m32le.trx" >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -q "needs an Intel HEX or S-record dump" "$WORK/err" && ok "--base-address on a raw file: usage error" ||
    fail "--base-address on a raw file: $(cat "$WORK/err")"
"$EVT" info --offset 99999999 "$DATA/threadx_real/nowrap_m32le.trx" >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -q "past the end" "$WORK/err" && ok "--offset past the end: usage error" ||
    fail "--offset past the end: $(cat "$WORK/err")"

# Ten data records (160 bytes of the registry) deleted from the middle: the image is still
# contiguous to the decoder, the hole read as 0x00; a gap is damage: an error at its offset, exit 1
# (it was silent: 0 errors, check OK, objects missing)
sed '100,109d' "$hex" >"$WORK/gap.hex"
gap_line=$(sed -n 100p "$hex")
gap_addr=$(( 0x20010000 + 0x${gap_line:3:4} - 0x$(sed -n 2p "$hex" | cut -c4-7) ))
"$EVT" check "$WORK/gap.hex" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -qE "offset $((gap_addr - 0x20010000)) .*160 bytes .* in no record of the dump \(1 gap, the first at address $(printf '0x%x' $gap_addr), 160 bytes\)" "$WORK/err" &&
    ok "ihex with 10 records deleted: exit 1, $(head -c 200 "$WORK/err")" ||
    fail "ihex with records deleted: exit $rc (want 1), stderr: $(head -c 300 "$WORK/err")"
"$EVT" check "$WORK/nowrap_m32le.hex" >/dev/null 2>"$WORK/err" && ! grep -q "no record" "$WORK/err" &&
    ok "a dump without gaps: no gap reported" || fail "a dump without gaps: $(head -c 300 "$WORK/err")"

[ $fails -eq 0 ] || { echo "$fails memory-dump check(s) failed" >&2; exit 1; }
echo "memory dumps: HEX and S-record decode as the raw buffer; damage reported with offsets"

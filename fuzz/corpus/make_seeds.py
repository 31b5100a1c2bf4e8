#!/usr/bin/env python3
"""Writes the seed corpora of the entry-point fuzz targets (fuzz/corpus/<entry>/seed-*) from the
small trace seeds already in fuzz/corpus/<reader>/ plus a few hand-made files. Run from anywhere:
  python3 fuzz/corpus/make_seeds.py
Existing files (crash inputs, libFuzzer finds kept on purpose) are left alone."""
import os
import struct

# fuzz_common.h's selector byte: k = the (k-1)th reader of src/host/readers.def (rkh is 5th).
RKH_SELECTOR = 5
HERE = os.path.dirname(os.path.abspath(__file__))

# One small real trace per format (all already in the repository's reader corpora).
TRACES = {
    "threadx": "threadx/golden_le.trx",
    "threadx-be": "threadx/golden_be.trx",
    "rkh": "rkh/blinky_stock.bin",
    "xray-basic": "xray/basic-v1.xray",
    "xray-fdr": "xray/fdr-v2.xray",
    "etw": "etw/perfview_smallEtlFile.etl",
}


def read(rel):
    with open(os.path.join(HERE, rel), "rb") as f:
        return f.read()


def put(entry, name, data):
    d = os.path.join(HERE, entry)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def tiny_elf():
    """A 64-bit LE ELF with xray_instr_map (3 sleds of 2 functions, one v2 PC-relative), .symtab
    (2 FUNC symbols) and .strtab: just what xray_map_load reads."""
    shstr = b"\0.shstrtab\0xray_instr_map\0.symtab\0.strtab\0"
    n_shstr, n_map, n_sym, n_str = 1, 11, 26, 34
    strtab = b"\0leaf\0fib\0"
    map_addr = 0x2000
    sleds = b""
    # v0/1 entries: absolute function address; v2: relative to the entry's function field
    sleds += struct.pack("<QQBBB13x", 0x1000, 0x1000, 0, 1, 0)
    sleds += struct.pack("<QQBBB13x", 0x1010, 0x1000, 1, 1, 0)
    fn_field = map_addr + 2 * 32 + 8
    sleds += struct.pack("<QqBBB13x", 0x1020, 0x1020 - fn_field, 0, 1, 2)
    syms = b"\0" * 24
    syms += struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0x1000, 16)
    syms += struct.pack("<IBBHQQ", 6, 0x12, 0, 1, 0x1020, 16)
    body = b""
    offs = {}
    off = 64
    for name, blob in (("shstr", shstr), ("map", sleds), ("sym", syms), ("str", strtab)):
        offs[name] = off + len(body)
        body += blob
        while (off + len(body)) % 8:
            body += b"\0"
    shoff = off + len(body)

    def sh(name, typ, addr, o, size, link=0, entsize=0):
        return struct.pack("<IIQQQQIIQQ", name, typ, 0, addr, o, size, link, 0, 1, entsize)

    shdrs = sh(0, 0, 0, 0, 0)
    shdrs += sh(n_shstr, 3, 0, offs["shstr"], len(shstr))
    shdrs += sh(n_map, 1, map_addr, offs["map"], len(sleds))
    shdrs += sh(n_sym, 2, 0, offs["sym"], len(syms), link=4, entsize=24)
    shdrs += sh(n_str, 3, 0, offs["str"], len(strtab))
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
    eh += struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 5, 1)
    return eh + body + shdrs


def rkh_stuff(body):
    out = b""
    for b in body:
        out += bytes([0x7D, b ^ 0x20]) if b in (0x7D, 0x7E) else bytes([b])
    return out


def rkh_losses(stream):
    """blinky_stock with what a ring drained while it overflows leaves (docs/rkh.md): records left
    out (sequence gaps), a record cut by escape + flag (aborted), evtrace loss records before and
    after the gaps they explain, and one gap no loss record explains (an error)."""
    frames = stream.strip(b"\x7e").split(b"\x7e")
    total = 0

    def loss(n):
        nonlocal total
        total += n
        body = struct.pack("<BII", 0xBF, n, total)
        return rkh_stuff(body + bytes([(-sum(body)) & 0xFF])) + b"\x7e"

    out = b"\x7e" + frames[0] + b"\x7e"  # TCFG
    recs = [f + b"\x7e" for f in frames[1:]]
    out += b"".join(recs[0:3])
    out += b"".join(recs[5:7]) + loss(2)  # gap of 2, loss record after it
    out += loss(1) + b"".join(recs[8:10])  # loss record before its gap
    out += recs[10][:4] + b"\x7d\x7e" + b"".join(recs[12:14]) + loss(2)  # aborted frame + gap
    out += b"".join(recs[15:])  # a gap nothing explains
    return out


def main():
    traces = {k: read(v) for k, v in TRACES.items()}
    # The RKH reader: the loss ledger (gaps and aborted frames explained by loss records).
    put("rkh", "losses", rkh_losses(traces["rkh"]))
    # Auto-detection: the bytes as they are, plus an empty file.
    for k, t in traces.items():
        put("detect", k, t)
    put("detect", "empty", b"")
    # Stream: selector 0 (auto-detection), chunk sizes 16, 1, 5*64 and 64, then the trace.
    for k, t in traces.items():
        put("stream", k, bytes([0, 15, 0, 0x84, 63]) + t)
    put("stream", "rkh-selected", bytes([RKH_SELECTOR, 15, 0, 0x84, 63]) + traces["rkh"])
    # Exporters and the report: selector 0 (auto-detection), then the trace.
    for entry in ("export_chrome", "export_perfetto", "export_ctf", "export_sqlite", "report", "stats"):
        for k, t in traces.items():
            put(entry, k, b"\0" + t)
        put(entry, "rkh-selected", bytes([RKH_SELECTOR]) + traces["rkh"])
    # --rkh-config: an rkhcfg.h-style file.
    put("rkh_cfg", "rkhcfg.h", b"""/* rkhcfg.h (cut down) */
#define RKH_CFG_FWK_SIZEOF_EVT              8u
#define RKH_CFG_FWK_MAX_EVT_POOL            (4u)
#define RKH_CFG_TRC_RTFIL_EN                RKH_ENABLED
#define RKH_CFG_TRC_TSTAMP_EN               RKH_DISABLED
#define RKH_CFG_TMR_SIZEOF_NTIMER           16
#define RKH_CFG_QUE_SIZEOF_NELEM            32UL
#define RKH_CFGPORT_TRC_SIZEOF_PTR          16
#define RKH_CFGPORT_TRC_SIZEOF_FUN_PTR      32u
#define RKH_CFGPORT_TRC_SIZEOF_TSTAMP       0x20
#define RKH_CFG_SMA_PPRO_EN                 OTHER_MACRO
""")
    # Instrumentation map: selector 0 = YAML (first lines of tests/data/xray/instr-map.yaml),
    # selector 1 = ELF (the bytes after the magic, which the harness writes itself).
    yaml = b"""---
- { id: 1, address: 0x21DB0, function: 0x21DB0, kind: function-enter, always-instrument: true, function-name: leaf, version: 2 }
- { id: 1, address: 0x21DC4, function: 0x21DB0, kind: function-exit, always-instrument: true, function-name: leaf, version: 2 }
- { id: 2, address: 0x21DD0, function: 0x21DD0, kind: function-enter, always-instrument: true, function-name: fib, version: 2 }
- { id: 3, address: 0x21E20, function: 0x21E20, kind: log-args-enter, always-instrument: true, version: 2 }
...
"""
    put("xray_map", "yaml", b"\0" + yaml)
    put("xray_map", "elf", b"\1" + tiny_elf()[4:])
    # CLI options: command index (src/cli/commands.def order), then NUL-separated arguments.
    cli = {
        "info-json": (0, [b"trace.trx", b"--json", b"--format=threadx"]),
        "dump-follow": (1, [b"-", b"--follow", b"--idle-exit=1.5", b"--rkh-config", b"cfg.h", b"-q"]),
        "check-listen": (2, [b"--listen", b"5000", b"--format", b"nope"]),
        "convert-to": (3, [b"in.trx", b"-o", b"out.json", b"--to", b"chrome", b"--force"]),
        "stats-help": (4, [b"x", b"--help"]),
        "query-sql": (5, [b"db.sqlite", b"SELECT 1", b"--json"]),
        "report-cluster": (6, [b"t.trx", b"-qoout.html", b"--", b"-weird"]),
        "convert-bad": (3, [b"--output=", b"--instr-map", b"--to=", b"-x", b"--json=1"]),
    }
    for k, (cmd, args) in cli.items():
        put("cli", k, bytes([cmd]) + b"\0".join(args))
    # XPRESS: u16 LE output room, then the compressed bytes (the ETW corpus's abc300 stream).
    put("xpress", "abc300", read("etw/xpress_abc300.bin"))
    put("xpress", "literals", struct.pack("<H", 8) + struct.pack("<I", 0) + b"evtrace!")


if __name__ == "__main__":
    main()

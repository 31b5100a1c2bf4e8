#!/usr/bin/env python3
"""Checks of ports/cortexm_qemu: turn the harness's semihosting hex dump into target.trx, compare it
byte for byte with the host twin's host.trx, and check with `evtrace info --json` / `dump --json`
that it decodes to exactly the events cm_script.h records (the list below is written from the
script by hand, independently of the recorder).
Usage: check_cortexm.py QEMU_OUT TARGET_TRX HOST_TRX EVTRACE"""
import json
import subprocess
import sys

REGISTRY, SLOTS, SLACK = 4, 16, 8
BUF_SIZE = 48 + 48 * REGISTRY + 32 * SLOTS + SLACK
BASE = 0x20010000
T1, T2, Q, S = 0x20000100, 0x20000200, 0x20000300, 0x20000400
ISR, INIT = 0xFFFFFFFF, 0xF0F0F0F0
P1, P2 = 0x80050005, 0x80070007

# (id, name or None for user events, ctx, priority word, [info1..4]); ts = position (counter clock)
SCRIPT = [
    (6, "RUNNING", INIT, 0, [0, 0, 0, 0]),
    (6, "RUNNING", INIT, 0, [0, 0, 0, 0]),
    (100, "THREAD_CREATE", INIT, 0, [T1, 5, 0x20002000, 1024]),
    (100, "THREAD_CREATE", INIT, 0, [T2, 7, 0x20002400, 1024]),
    (60, "QUEUE_CREATE", INIT, 0, [Q, 1, 0x20003000, 64]),
    (81, "SEMAPHORE_CREATE", INIT, 0, [S, 0, 0x20001F00, 0]),
    (1, "THREAD_RESUME", T1, P1, [T1, 3, 0x20002380, 0]),
    (69, "QUEUE_SEND", T1, P1, [Q, 0x200023F0, 0xFFFFFFFF, 0]),
    (4096, None, T1, P1, [1, 2, 3, 4]),
    (3, "ISR_ENTER", ISR, T1, [0x2003FFC0, 11, 1, 0]),
    (88, "SEMAPHORE_PUT", ISR, T1, [S, 0, 1, 0x2003FFC0]),
    (1, "THREAD_RESUME", ISR, T1, [T2, 6, 0x2003FFC0, 0]),
    (4, "ISR_EXIT", ISR, T1, [0x2003FFC0, 11, 1, 0]),
    (83, "SEMAPHORE_GET", T2, P2, [S, 0xFFFFFFFF, 1, 0x200027C0]),
    (68, "QUEUE_RECEIVE", T2, P2, [Q, 0x200027F0, 0xFFFFFFFF, 1]),
    (4097, None, T2, P2, [0xCAFE, 0, 0, 0xFFFFFFFF]),
    (40, "INTERRUPT_CONTROL", T2, P2, [1, 0x200027C0, 0, 0]),
    (40, "INTERRUPT_CONTROL", T2, P2, [0, 0x200027C0, 0, 0]),
    (0x12345, None, T2, P2, [5, 6, 7, 8]),
    (2, "THREAD_SUSPEND", T2, P2, [T2, 5, 0x200027A0, 0]),
    # disable: evtrace's LOST record (no drop; info4 = records the wrap overwrote: the 4 oldest
    # script records and the one whose slot this record takes)
    (190, "EVTRACE_LOST", INIT, 0, [0, 0, 0x65767472, 5]),
]
LOST = 5
OLDEST = len(SCRIPT) % SLOTS  # one wrap: the slot the 22nd record would take

OBJECTS = [  # index, type, name, addr, p1, p2, available, priority
    (0, 1, "producer", T1, 0x20002000, 1024, 0, 5),
    (1, 1, "consumer", T2, 0x20002400, 1024, 0, 7),
    (2, 3, "cm queue", Q, 64, 1, 0, None),
    (3, 4, "cm semaphore", S, 0, 0, 1, None),
]

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def hexs(v):
    if isinstance(v, list):
        return "[" + " ".join(hexs(x) for x in v) + "]"
    return f"{v:#x}" if isinstance(v, int) else repr(v)


def field_name(off):
    if off < 48:
        return f"header +{off}"
    if off < 48 + 48 * REGISTRY:
        return f"registry {(off - 48) // 48} +{(off - 48) % 48}"
    o = off - 48 - 48 * REGISTRY
    if o < 32 * SLOTS:
        return f"slot {o // 32} word {(o % 32) // 4}"
    return "slack"


def main():
    qemu_out, target_trx, host_trx, evtrace = sys.argv[1:5]
    lines = open(qemu_out, encoding="ascii", errors="replace").read().splitlines()
    try:
        b, e = lines.index("EVT-TXTB-BEGIN"), lines.index("EVT-TXTB-END")
    except ValueError:
        sys.exit("FAIL: no EVT-TXTB-BEGIN/END dump in the harness output")
    data = bytes.fromhex("".join(lines[b + 1:e]))
    open(target_trx, "wb").write(data)
    check(len(data) == BUF_SIZE, f"target dump is {len(data)} bytes (want {BUF_SIZE})")

    host = open(host_trx, "rb").read()
    diff = [i for i in range(min(len(host), len(data))) if host[i] != data[i]]
    words = sorted({field_name(i) for i in diff})
    check(len(host) == len(data) and not diff,
          "target buffer byte-identical to the host twin" +
          (f" (differs in {len(diff)} bytes: {', '.join(words[:12])})" if diff else ""))

    info = json.loads(subprocess.run([evtrace, "info", "--json", target_trx], check=True,
                                     capture_output=True, text=True).stdout)
    want = {"format": "threadx", "byte_order": "little", "capacity": SLOTS, "wrapped": True,
            "oldest_index": OLDEST, "registry_entries": REGISTRY, "events": SLOTS, "lost": LOST,
            "errors": 0, "timer_mask": 0xFFFFFFFF}
    for k, v in want.items():
        check(info.get(k) == v, f"info --json {k} = {info.get(k)!r} (want {v!r})")
    objs = info.get("objects", [])
    check(len(objs) == len(OBJECTS), f"info --json lists {len(objs)} objects (want {len(OBJECTS)})")
    for (idx, typ, name, addr, p1, p2, avail, prio), o in zip(OBJECTS, objs):
        got = (o.get("index"), o.get("type"), o.get("name"), o.get("addr"), o.get("param1"),
               o.get("param2"), o.get("available"), o.get("priority"))
        check(got == (idx, typ, name, addr, p1, p2, avail, prio),
              f"registry slot {idx}: type {got[1]} {got[2]!r} addr {hexs(got[3])} params "
              f"{hexs(got[4])} {hexs(got[5])} available {got[6]} priority {got[7]}")

    dump = subprocess.run([evtrace, "dump", "--json", target_trx], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    evs = [json.loads(x) for x in dump if x.strip()]
    expect = SCRIPT[len(SCRIPT) - SLOTS:]  # the oldest records were overwritten by the wrap
    check(len(evs) == len(expect), f"dump --json gives {len(evs)} events (want {len(expect)})")
    names = {T1: "producer", T2: "consumer"}
    for n, (ev, (eid, name, ctx, prio, args)) in enumerate(zip(evs, expect)):
        ts = len(SCRIPT) - SLOTS + n
        ok = (ev.get("id") == eid and (name is None or ev.get("name") == name) and ev.get("ctx") == ctx
              and ev.get("prio") == prio and ev.get("ts") == ts and len(ev.get("args", [])) == 4
              and ev["args"] == args)
        if ctx in names:
            ok = ok and ev.get("ctx_name") == names[ctx]
        check(ok, f"event {n}: ts {ev.get('ts')} id {ev.get('id')} {ev.get('name')} ctx {hexs(ev.get('ctx'))} "
                  f"({ev.get('ctx_name')}) prio {hexs(ev.get('prio'))} args {hexs(ev.get('args'))}")
    if failures:
        sys.exit(f"FAIL: {len(failures)} check(s) failed")
    print("cortexm_qemu: all checks passed")


if __name__ == "__main__":
    main()

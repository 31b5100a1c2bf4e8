#!/usr/bin/env python3
"""Oracle tests of evtrace's XRay reader and recorder against LLVM's own tools.

  sample EVTRACE SAMPLES_DIR
      the shared FDR v5 sample: `evtrace dump --json` agrees record for record with llvm-xray's
      YAML (fdr-v5-small.yaml) and `evtrace info --json` with fdr-v5-small.summary.json.
  fdr EVTRACE SRC_DIR WORK_DIR
      builds tests/formats/xray/xray_prog.c with clang -fxray-instrument, runs it under
      compiler-rt's FDR mode, and compares evtrace's reading of the trace with
      `llvm-xray convert -f yaml` (function ids, kinds, thread ids, timestamps, args), resolving
      names from the binary (ELF xray_instr_map) and from `llvm-xray extract` YAML.
  basic EVTRACE SRC_DIR WORK_DIR
      the same program under compiler-rt's basic mode (version 3 files).
  rec EVTRACE SRC_DIR WORK_DIR
      the same program run with evtrace's XRay handler: `llvm-xray fdr-dump --verify` and
      `llvm-xray convert` accept the file, and the records match the calls the program made.
  corpus EVTRACE CORPUS_DIR
      every seed file (FDR v1, v2, v4, v5, basic v1, v3) agrees with `llvm-xray convert`.
  cyg EVTRACE SRC_DIR WORK_DIR
      tests/formats/xray/xray_cyg_prog.c built with gcc -finstrument-functions + the explicit API:
      the file and its map are accepted by llvm-xray and name the functions for evtrace.
Fails (exit 1) when a tool is missing.
"""
import collections
import glob
import json
import os
import shutil
import subprocess
import sys

import yaml

KIND = {"function-enter": "enter", "function-exit": "exit", "function-tail-exit": "tail_exit",
        "function-enter-arg": "enter_args", "custom-event": "custom_event", "typed-event": "typed_event"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def tool(name):
    for cand in (name, name + "-14"):
        p = shutil.which(cand)
        if p:
            return p
    fail("required tool %s not found (install it: scripts/deps.sh)" % name)


def run(cmd, env=None, ok=(0,)):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if p.returncode not in ok:
        fail("%s exited %d:\n%s%s" % (" ".join(cmd), p.returncode, p.stdout.decode(errors="replace")[-2000:],
                                        p.stderr.decode(errors="replace")[-2000:]))
    return p.stdout.decode(errors="replace")


def evtrace_events(evtrace, trace, extra=()):
    out = run([evtrace, "dump", "--json"] + list(extra) + [trace])
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def llvm_records(yaml_text):
    doc = yaml.safe_load(yaml_text)
    return doc["header"], doc["records"]


def key_llvm(r):
    k = KIND[r["kind"]]
    data = r.get("data") or ""
    args = [int(a) for a in r.get("args", [])] if k.startswith("enter") else []
    fid = r["func-id"] if not k.endswith("_event") else None
    return (k, fid, int(r["thread"]), int(r["tsc"]), tuple(args), str(data).encode().hex() if k.endswith("_event") else "")


def key_evt(e):
    k = e["name"]
    if k.endswith("_event"):
        return (k, None, e["ctx"], e["ts"], (), e.get("data", ""))
    return (k, e["args"][0], e["ctx"], e["ts"], tuple(e["args"][1:]), "")


def per_thread(keys):
    d = collections.OrderedDict()
    for k in keys:
        d.setdefault(k[2], []).append(k)
    return d


def compare(evts, recs, names=None):
    """Record for record, per thread in order (llvm-xray sorts globally by TSC; ties are unordered)."""
    ours = [key_evt(e) for e in evts if e["kind"] != "lost"]
    theirs = [key_llvm(r) for r in recs]
    if len(ours) != len(theirs):
        fail("evtrace has %d records, llvm-xray %d" % (len(ours), len(theirs)))
    a, b = per_thread(ours), per_thread(theirs)
    if sorted(a) != sorted(b):
        fail("threads differ: evtrace %s, llvm-xray %s" % (sorted(a), sorted(b)))
    for tid in a:
        for i, (x, y) in enumerate(zip(a[tid], b[tid])):
            if x != y:
                fail("thread %d record %d: evtrace %s, llvm-xray %s" % (tid, i, x, y))
    ts = [e["ts"] for e in evts if e["kind"] != "lost"]
    if ts != sorted(ts):
        fail("evtrace events are not merged in timestamp order")
    if names:
        by_id = {r["func-id"]: r["function"] for r in recs if not KIND[r["kind"]].endswith("_event")}
        for e in evts:
            if e["kind"] in ("func_enter", "func_exit"):
                want = by_id.get(e["args"][0])
                if want and not want.startswith("#") and e["fields"]["function"] != want:
                    fail("function %d named %r by evtrace, %r by llvm-xray" % (e["args"][0], e["fields"]["function"], want))
    return len(ours)


def cmd_sample(evtrace, samples):
    d = os.path.join(samples, "xray")
    trace = os.path.join(d, "fdr-v5-small.xray")
    imap = os.path.join(d, "instr-map.yaml")
    evts = evtrace_events(evtrace, trace, ["--instr-map", imap])
    with open(os.path.join(d, "fdr-v5-small.yaml")) as f:
        hdr, recs = llvm_records(f.read())
    n = compare(evts, recs, names=True)
    info = json.loads(run([evtrace, "info", "--json", "--instr-map", imap, trace]))
    with open(os.path.join(d, "fdr-v5-small.summary.json")) as f:
        summ = json.load(f)
    for k, v in summ["header"].items():
        if k in ("version", "type") and k == "type":
            if info["type"] != {1: "fdr", 0: "basic"}[v]:
                fail("type %r != %r" % (info["type"], v))
        elif k in ("version", "cycle_frequency", "constant_tsc", "nonstop_tsc", "buffer_size") and info[k] != v:
            fail("header %s: evtrace %r, summary %r" % (k, info[k], v))
    if info["clock_hz"] != hdr["cycle-frequency"]:
        fail("clock_hz %r" % info["clock_hz"])
    for k, v in info["records"].items():
        if summ["record_counts"].get(k, 0) != v:
            fail("records.%s: evtrace %d, summary %d" % (k, v, summ["record_counts"].get(k, 0)))
    for k in summ["record_counts"]:
        if k not in info["records"]:
            fail("records.%s missing" % k)
    if info["threads"] != summ["threads"] or info["blocks"] != summ["blocks"]:
        fail("threads/blocks differ")
    for tid, counts in summ["per_thread"].items():
        pt = info["per_thread"][tid]
        for k, v in pt["records"].items():
            if counts.get(k, 0) != v:
                fail("per_thread %s %s: evtrace %d, summary %d" % (tid, k, v, counts.get(k, 0)))
        if pt["max_depth"] != summ["max_depth"][tid] or pt["open_at_end"] != summ["open_at_end"][tid] \
                or pt["unmatched_exits"] != summ["unmatched_exits"][tid]:
            fail("per_thread %s stack facts differ" % tid)
    fc = collections.Counter()
    evk = {"enter": "Enter", "exit": "Exit", "tail_exit": "TailExit", "enter_args": "EnterArg"}
    args, events = [], []
    for e in evts:
        if e["kind"] in ("func_enter", "func_exit"):
            fc["%d:%s" % (e["args"][0], evk[e["name"]])] += 1
            if e["name"] == "enter_args":
                args += [{"arg": a, "func_id": e["args"][0], "tid": e["ctx"]} for a in e["args"][1:]]
        elif e["name"] == "custom_event":
            events.append({"kind": "CustomEventMarker", "payload": e["text"], "tid": e["ctx"]})
    if dict(fc) != summ["function_counts"]:
        fail("function counts %s != %s" % (dict(fc), summ["function_counts"]))
    key = lambda x: (x["tid"], json.dumps(x, sort_keys=True))
    if sorted(args, key=key) != sorted(summ["call_args"], key=key):
        fail("call args differ")
    if sorted(events, key=key) != sorted(summ["events"], key=key):
        fail("custom events differ")
    print("sample: %d records agree with llvm-xray's YAML; info agrees with summary.json" % n)


PROG_FLAGS = ["-O2", "-fxray-instrument", "-fxray-instruction-threshold=1", "-pthread"]


def build_prog(src, work, extra_src=(), extra_flags=(), name="xray_prog"):
    clang = tool("clang")
    exe = os.path.join(work, name)
    run([clang] + PROG_FLAGS + list(extra_flags) + ["-o", exe, os.path.join(src, "tests/formats/xray/xray_prog.c")]
        + list(extra_src))
    return exe


def run_xray_mode(exe, work, mode, opts_env):
    for f in glob.glob(os.path.join(work, "xr-*")):
        os.unlink(f)
    env = dict(os.environ)
    env["XRAY_OPTIONS"] = "patch_premain=true xray_mode=%s xray_logfile_base=%s/xr-" % (mode, work)
    env.update(opts_env)
    out = run([exe, mode], env=env)
    files = glob.glob(os.path.join(work, "xr-*"))
    if len(files) != 1:
        fail("expected one trace file from %s mode, found %s (program output: %s)" % (mode, files, out))
    return files[0], out


def cmd_mode(evtrace, src, work, mode):
    xray = tool("llvm-xray")
    os.makedirs(work, exist_ok=True)
    exe = build_prog(src, work)
    env = {"XRAY_FDR_OPTIONS": "func_duration_threshold_us=0", "XRAY_BASIC_OPTIONS": "func_duration_threshold_us=0"}
    trace, _ = run_xray_mode(exe, work, mode, env)
    hdr, recs = llvm_records(run([xray, "convert", "-f", "yaml", "-m", exe, "-y", trace]))
    evts = evtrace_events(evtrace, trace, ["--instr-map", exe])
    n = compare(evts, recs, names=True)
    # names from llvm-xray extract's YAML too
    imap = os.path.join(work, "map.yaml")
    with open(imap, "w") as f:
        f.write(run([xray, "extract", "--symbolize", exe]))
    evts2 = evtrace_events(evtrace, trace, ["--instr-map", imap])
    compare(evts2, recs, names=True)
    info = json.loads(run([evtrace, "info", "--json", trace]))
    want_ver = 5 if mode == "xray-fdr" else 3
    if info["version"] != want_ver or info["type"] != ("fdr" if mode == "xray-fdr" else "basic"):
        fail("header: %s" % info)
    if info["cycle_frequency"] != hdr["cycle-frequency"]:
        fail("cycle frequency")
    if len(info["threads"]) != len({r["thread"] for r in recs}):
        fail("thread count")
    print("%s: %d records agree with llvm-xray convert (%d threads)" % (mode, n, len(info["threads"])))


RT_SRC = ["src/formats/xray/xray_enc.c", "src/ports/posix/xray_runtime.c", "src/ports/posix/xray_cyg.c",
          "src/ports/posix/port_posix.c"]


def rt_sources(src):
    """The recorder runtime's sources: the list above plus every file of the core."""
    core = sorted(os.path.relpath(p, src) for p in glob.glob(os.path.join(src, "src/core/*.c")))
    return RT_SRC + core


def rt_includes(src):
    """Include paths of the recorder runtime and of programs that include evtrace/xray.h."""
    return ["-I" + os.path.join(src, "include"), "-I" + os.path.join(src, "src"),
            "-I" + os.path.join(src, "src/ports/posix")]


def build_rt(src, work):
    """evtrace's recorder sources compiled WITHOUT -fxray-instrument (the handler must not be instrumented)."""
    clang = tool("clang")
    objs = []
    for f in rt_sources(src):
        o = os.path.join(work, os.path.basename(f) + ".o")
        run([clang, "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L"] + rt_includes(src) +
            ["-c", os.path.join(src, f), "-o", o])
        objs.append(o)
    return objs


def check_calls(evts, calls):
    got = collections.Counter()
    for e in evts:
        if e["kind"] == "func_enter":
            got["%s:%d" % (e["fields"]["function"], e["ctx"])] += 1
    bad = {k: (v, got.get(k, 0)) for k, v in calls.items() if got.get(k, 0) != v}
    if bad:
        fail("calls made vs recorded entries differ: %s" % bad)


def cmd_rec(evtrace, src, work):
    xray = tool("llvm-xray")
    os.makedirs(work, exist_ok=True)
    objs = build_rt(src, work)
    exe = build_prog(src, work, extra_src=objs, extra_flags=["-DXRAY_PROG_EVTRACE"] + rt_includes(src),
                     name="xray_prog_evt")
    trace = os.path.join(work, "evt-trace.xray")
    if os.path.exists(trace):
        os.unlink(trace)
    env = dict(os.environ)
    env["XRAY_OPTIONS"] = "patch_premain=true"
    env["EVT_XRAY_FILE"] = trace
    out = run([exe, "evtrace"], env=env)
    calls = json.loads(out.strip().splitlines()[-1])
    run([xray, "fdr-dump", "--verify", trace])
    hdr, recs = llvm_records(run([xray, "convert", "-f", "yaml", "-m", exe, "-y", trace]))
    evts = evtrace_events(evtrace, trace, ["--instr-map", exe])
    n = compare(evts, recs, names=True)
    check_calls(evts, calls)
    info = json.loads(run([evtrace, "info", "--json", trace]))
    if not info["evtrace_recorder"] or info["lost_buffers"] or info["dropped_records"] or info["errors"]:
        fail("info: %s" % info)
    if len(info["threads"]) != 3:
        fail("expected 3 threads, got %s" % info["threads"])
    custom = [e for e in evts if e["name"] == "custom_event"]
    if sorted(e["text"] for e in custom) != sorted("ev t%d i%d" % (t, i) for t in range(3) for i in range(3)):
        fail("custom events: %s" % [e.get("text") for e in custom])
    print("rec: %d records; llvm-xray fdr-dump --verify and convert accept the file; calls match (%d function x thread)"
          % (n, len(calls)))
    # A session that records nothing: llvm-xray reads its file as no records (compiler-rt writes
    # the header alone there, which llvm-xray rejects), and so does evtrace.
    empty = os.path.join(work, "evt-empty.xray")
    if os.path.exists(empty):
        os.unlink(empty)
    env["EVT_XRAY_FILE"] = empty
    run([exe, "evtrace-empty"], env=env)
    run([xray, "fdr-dump", "--verify", empty])
    hdr, recs = llvm_records(run([xray, "convert", "-f", "yaml", "-m", exe, "-y", empty]))
    if recs:
        fail("empty session: llvm-xray convert found records: %s" % recs[:3])
    info = json.loads(run([evtrace, "info", "--json", empty]))
    if info["errors"] or info["events"] or info["lost"]:
        fail("empty session: info: %s" % info)
    print("rec: the empty session's file: llvm-xray fdr-dump --verify and convert read no records, evtrace 0 events")


def cmd_cyg(evtrace, src, work):
    """-finstrument-functions front end + explicit API, built with the system C compiler (GCC)."""
    xray = tool("llvm-xray")
    cc = tool("gcc")
    os.makedirs(work, exist_ok=True)
    objs = []
    for f in rt_sources(src):
        o = os.path.join(work, os.path.basename(f) + ".o")
        run([cc, "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L"] + rt_includes(src) +
            ["-c", os.path.join(src, f), "-o", o])
        objs.append(o)
    exe = os.path.join(work, "xray_cyg_prog")
    run([cc, "-O2", "-finstrument-functions", "-rdynamic", "-pthread"] + rt_includes(src) +
        [os.path.join(src, "tests/formats/xray/xray_cyg_prog.c")] + objs + ["-o", exe])
    trace = os.path.join(work, "cyg.xray")
    for f in (trace, trace + ".map.yaml"):
        if os.path.exists(f):
            os.unlink(f)
    calls = json.loads(run([exe, trace]).strip().splitlines()[-1])
    if not os.path.exists(trace + ".map.yaml"):
        fail("no map written beside the trace")
    run([xray, "fdr-dump", "--verify", trace])
    hdr, recs = llvm_records(run([xray, "convert", "-f", "yaml", "-m", trace + ".map.yaml", "-y", trace]))
    evts = evtrace_events(evtrace, trace, ["--instr-map", trace + ".map.yaml"])
    n = compare(evts, recs)
    check_calls(evts, calls)
    marks = [e for e in evts if e["name"] == "enter_args" and e["args"][0] == 100000]
    if sorted(e["args"][1] for e in marks) != [0, 0, 1, 1, 2, 2, 3, 3]:
        fail("explicit enter_args markers: %s" % [e["args"] for e in marks])
    if len([e for e in evts if e["name"] == "custom_event" and e.get("text") == "mark"]) != 8:
        fail("explicit custom events")
    typed = [e for e in evts if e["name"] == "typed_event"]
    if len(typed) != 8 or any(e["data"] != "010203" or e["fields"]["event_type"] != 5 for e in typed):
        fail("explicit typed events: %s" % typed[:2])
    print("cyg: %d records; fdr-dump --verify and convert accept the file; names from the map; calls match" % n)
    # The same program with a pool of 3 x 256-byte buffers: the rotation overwrites buffers, so the
    # file carries loss records (custom events tagged evtrLOSS). llvm-xray must still accept it;
    # evtrace's records + lost must equal the records of the lossless run, exactly.
    lossy = os.path.join(work, "cyg-lossy.xray")
    if os.path.exists(lossy):
        os.unlink(lossy)
    env = dict(os.environ)
    env["EVT_XRAY_BUFFER_SIZE"] = "256"
    env["EVT_XRAY_BUFFER_COUNT"] = "3"
    run([exe, lossy], env=env)
    run([xray, "fdr-dump", "--verify", lossy])
    hdr2, recs2 = llvm_records(run([xray, "convert", "-f", "yaml", "-m", lossy + ".map.yaml", "-y", lossy]))
    loss_recs = [r for r in recs2 if KIND[r["kind"]] == "custom_event" and str(r.get("data", "")).startswith("evtrLOSS")]
    if not loss_recs:
        fail("lossy run: no loss record in the file")
    evts2 = evtrace_events(evtrace, lossy, ["--instr-map", lossy + ".map.yaml"])
    kept = compare(evts2, [r for r in recs2 if r not in loss_recs])
    lost = sum(e.get("count", 0) for e in evts2 if e["kind"] == "lost")
    if kept + lost != n:
        fail("lossy run: %d records + %d lost != %d records issued" % (kept, lost, n))
    print("cyg lossy: %d records + %d lost (%d loss records) == %d issued; llvm-xray fdr-dump --verify and convert accept it"
          % (kept, lost, len(loss_recs), n))


def cmd_corpus(evtrace, corpus):
    """Every seed of fuzz/corpus/xray (FDR v1, v2, v4, v5, basic v1, v3; real and hand-made) read by
    evtrace and by llvm-xray convert: same records."""
    xray = tool("llvm-xray")
    files = sorted(glob.glob(os.path.join(corpus, "*.xray")))
    if len(files) < 6:
        fail("corpus %s has only %d files" % (corpus, len(files)))
    for f in files:
        hdr, recs = llvm_records(run([xray, "convert", "-f", "yaml", "-y", f]))
        evts = evtrace_events(evtrace, f)
        n = compare(evts, recs)
        info = json.loads(run([evtrace, "info", "--json", f]))
        if info["version"] != hdr["version"] or info["cycle_frequency"] != hdr["cycle-frequency"]:
            fail("%s: header differs" % f)
        print("corpus: %s: version %d %s, %d records agree" % (os.path.basename(f), info["version"], info["type"], n))


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    cmd = sys.argv[1]
    if cmd == "sample":
        cmd_sample(sys.argv[2], sys.argv[3])
    elif cmd == "fdr":
        cmd_mode(sys.argv[2], sys.argv[3], sys.argv[4], "xray-fdr")
    elif cmd == "basic":
        cmd_mode(sys.argv[2], sys.argv[3], sys.argv[4], "xray-basic")
    elif cmd == "corpus":
        cmd_corpus(sys.argv[2], sys.argv[3])
    elif cmd == "cyg":
        cmd_cyg(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "rec":
        cmd_rec(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        fail("unknown command " + cmd)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The man page and the bash completion (issue 31, item 5) come from the one option table: every
option `evtrace CMD --help` lists is in the man page, which groff renders without a warning; the
completion offers each command its options and no other (query's --max-rows, no reader options
for clickhouse-schema), the formats without `synthetic`, the output kinds, and file names where a
FILE goes. Usage: check_doc.py EVTRACE"""
import re, subprocess, sys

evtrace = sys.argv[1]
fails = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)


def run(*args):
    return subprocess.run([evtrace, *args], capture_output=True, text=True, timeout=60)


man = run("help", "--man").stdout
cmds = re.findall(r"^  (\S+) ", run("--help").stdout.split("Commands:\n")[1].split("\n\n")[0], re.M)
check(len(cmds) >= 8, f"commands from --help: {cmds}")
text = man.replace("\\-", "-")
for c in cmds:
    h = run(c, "--help").stdout
    opts = set(re.findall(r"^  (?:-\w, )?(--[a-z][a-z0-9-]*)", h, re.M))
    missing = [o for o in opts if o not in text]
    check(not missing and f"evtrace {c}" in text, f"man page: evtrace {c} and its {len(opts)} options ({missing})")
g = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=man, capture_output=True, text=True, timeout=60)
check(g.returncode == 0 and not g.stderr.strip(), f"groff renders the man page without warnings ({g.stderr.strip()[:200]})")

comp = run("help", "--bash-completion").stdout


def complete(words):
    """COMPREPLY of the completion for the command line `words` (the last word being completed)."""
    script = comp + "\nCOMP_WORDS=(%s)\nCOMP_CWORD=%d\n_evtrace\nprintf '%%s\\n' \"${COMPREPLY[@]}\"\n" % (
        " ".join("'%s'" % w for w in words), len(words) - 1)
    r = subprocess.run(["bash", "--norc", "--noprofile"], input=script, capture_output=True, text=True, timeout=60)
    return [l for l in r.stdout.splitlines() if l]


check(complete(["evtrace", "conv"]) == ["convert"], "commands: conv -> convert")
check("--max-rows" in complete(["evtrace", "query", "--ma"]), "query offers --max-rows")
check("--max-rows" not in complete(["evtrace", "dump", "--"]), "dump does not offer --max-rows")
cs = complete(["evtrace", "clickhouse-schema", "--"])
check(cs and "--rkh-config" not in cs and "--format" not in cs and "--cluster" in cs,
      f"clickhouse-schema: its own options only ({' '.join(cs)})")
fm = complete(["evtrace", "dump", "--format", ""])
check("threadx" in fm and "rkh" in fm and "synthetic" not in fm, f"--format: {fm}")
check("perfetto" in complete(["evtrace", "convert", "--to", "p"]), "--to: the output kinds")
check(complete(["evtrace", "stats", "--window", ""]) == [], "a valued option without files offers nothing")
check("--ca-file" in complete(["evtrace", "convert", "--ca"]) and "--begin" in complete(["evtrace", "info", "--be"]),
      "convert --ca-file, info --begin")
if fails:
    print(f"{len(fails)} check(s) failed", file=sys.stderr)
    sys.exit(1)
print("man page and completion: from the option table")

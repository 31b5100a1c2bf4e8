"""Shared pieces of the python test drivers: run the evtrace command, collect mismatches, report."""
import json
import subprocess
import sys


def run_evtrace(evtrace, *args):
    """The finished evtrace command (its exit code, stdout and stderr as text), whatever its exit."""
    return subprocess.run([evtrace, *args], capture_output=True, text=True, check=False)


def clean_trace(evtrace, trace):
    """What is wrong with reading a trace that should read clean: `check` exits 0 and `info --json`
    reports no errors and nothing lost. A list of messages, empty when clean."""
    bad = []
    c = run_evtrace(evtrace, 'check', trace)
    if c.returncode != 0:
        bad.append(f'check: exit {c.returncode}: {c.stdout.strip()} {c.stderr.strip()}')
    info = json.loads(run_evtrace(evtrace, 'info', '--json', trace).stdout)
    if info.get('errors') or info.get('lost'):
        bad.append(f"info: {info.get('errors')} errors, {info.get('lost')} lost")
    return bad


class Checker:
    """Collects mismatches instead of stopping at the first, then reports them all."""

    def __init__(self, evtrace):
        self.evtrace = evtrace
        self.fails = []

    def check(self, what, got, want):
        if got != want:
            self.fails.append(f"{what}: got {got!r}, want {want!r}")

    def fail(self, msg):
        self.fails.append(msg)

    def run(self, *args):
        """stdout of a successful evtrace command; exits the test if it fails."""
        r = subprocess.run([self.evtrace, *args], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"evtrace {' '.join(args)} exited {r.returncode}: {r.stderr}")
        return r.stdout

    def finish(self, subject, ok_message):
        if self.fails:
            print(f"{subject}: {len(self.fails)} mismatches", file=sys.stderr)
            for f in self.fails[:40]:
                print("  " + f, file=sys.stderr)
            sys.exit(1)
        print(f"{subject}: OK ({ok_message})")

"""Shared pieces of the python test drivers: run the evtrace command, collect mismatches, report."""
import subprocess
import sys


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

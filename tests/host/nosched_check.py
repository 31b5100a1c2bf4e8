#!/usr/bin/env python3
"""A trace that records no scheduling (XRay; ETW as evtrace reads it) gets no running/ready/blocked
states and no context switches in any output, and no CPU share: `info --json` lacks the
"scheduling" capability; SQLite thread_states holds only `active` intervals; Chrome has no
"running" slices, only "active" ones; CTF and Perfetto have no sched_switch; the report's data has
no state other than active; stats gives scheduling false and no CPU time. A ThreadX trace, which
records scheduling, keeps all of them (the check is not vacuous).

Usage: nosched_check.py EVTRACE DATA_DIR"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('FAIL: ' + msg)


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode not in (0, 2):
        raise SystemExit('FAIL: %s: exit %d: %s' % (' '.join(cmd), r.returncode, r.stderr.decode()[-2000:]))
    return r.stdout.decode('utf-8', 'replace')


def outputs(evtrace, path, tmp):
    """What every output says about scheduling: dict of counts."""
    info = json.loads(run([evtrace, 'info', '--json', path]))
    got = {'caps': info['capabilities']}
    db = os.path.join(tmp, 't.sqlite')
    run([evtrace, 'convert', '-q', '--force', path, '-o', db, '--to', 'sqlite'])
    con = sqlite3.connect(db)
    got['sqlite_states'] = {s: n for s, n in con.execute('SELECT state, count(*) FROM thread_states GROUP BY state')}
    got['sqlite_cpu'] = con.execute('SELECT coalesce(sum(cpu_time), 0) FROM contexts').fetchone()[0]
    con.close()
    cj = os.path.join(tmp, 'c.json')
    run([evtrace, 'convert', '-q', '--force', path, '-o', cj, '--to', 'chrome'])
    with open(cj, encoding='utf-8') as f:
        ev = json.load(f)['traceEvents']
    got['chrome_running'] = sum(1 for e in ev if e.get('name') == 'running' and e.get('cat') == 'sched')
    got['chrome_active'] = sum(1 for e in ev if e.get('name') == 'active' and e.get('cat') == 'activity')
    ctf = os.path.join(tmp, 'ctf')
    run([evtrace, 'convert', '-q', '--force', path, '-o', ctf, '--to', 'ctf'])
    with open(os.path.join(ctf, 'metadata'), encoding='utf-8') as f:
        meta = f.read()
    bt = subprocess.run(['babeltrace2', ctf], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    got['ctf_switches'] = bt.stdout.decode('utf-8', 'replace').count('sched_switch:') if bt.returncode == 0 else -1
    got['ctf_meta'] = 'sched_switch' in meta
    pf = os.path.join(tmp, 'p.pftrace')
    run([evtrace, 'convert', '-q', '--force', path, '-o', pf, '--to', 'perfetto'])
    with open(pf, 'rb') as f:
        data = f.read()
    got['perfetto_prev_comm'] = data.count(b'swapper')  # sched_switch records name idle "swapper"
    rep = os.path.join(tmp, 'r.html')
    run([evtrace, 'report', '-q', '--force', path, '-o', rep])
    with open(rep, encoding='utf-8') as f:
        html = f.read()
    i = html.index('id="evt-data"')
    body = html[html.index('>', i) + 1:html.index('</script>', i)]
    d = json.loads(body)
    names = d['meta']['state_names']
    got['report_states'] = sorted({names[d['states'][k + 1]] for k in range(0, len(d['states']), 8)})
    got['report_caps'] = d['meta'].get('capabilities')
    st = json.loads(run([evtrace, 'stats', '--json', path]))
    got['stats_sched'] = st.get('scheduling')
    got['stats_cpu'] = sum(c.get('cpu_time', 0) for c in st['contexts'])
    return got


def main():
    evtrace, data = sys.argv[1:3]
    nosched = [os.path.join(data, 'xray', 'fdr-v5-small.xray'),
               os.path.join(data, 'etw', 'etl-parser_lxcore_kernel.etl')]
    sched = os.path.join(data, 'threadx_tracex', 'demo_threadx.trx')
    with tempfile.TemporaryDirectory() as tmp:
        for p in nosched:
            g = outputs(evtrace, p, tmp)
            name = os.path.basename(p)
            if 'scheduling' in g['caps']:
                fail('%s: info capabilities %r claim scheduling' % (name, g['caps']))
            if set(g['sqlite_states']) - {'active'} or not g['sqlite_states']:
                fail('%s: sqlite thread_states %r (want only active)' % (name, g['sqlite_states']))
            if g['sqlite_cpu'] or g['stats_cpu'] or g['stats_sched'] is not False:
                fail('%s: CPU time computed: sqlite %r, stats %r, stats scheduling %r' %
                     (name, g['sqlite_cpu'], g['stats_cpu'], g['stats_sched']))
            if g['chrome_running'] or not g['chrome_active']:
                fail('%s: chrome running slices %d, active %d' % (name, g['chrome_running'], g['chrome_active']))
            if g['ctf_switches'] != 0:
                fail('%s: CTF sched_switch records %d' % (name, g['ctf_switches']))
            if g['perfetto_prev_comm']:
                fail('%s: Perfetto sched_switch records (idle "swapper" named %d times)' % (name, g['perfetto_prev_comm']))
            if g['report_states'] != ['active'] or 'scheduling' in (g['report_caps'] or []):
                fail('%s: report states %r, capabilities %r' % (name, g['report_states'], g['report_caps']))
            print('ok %s: capabilities %s; states %r; no switches, no CPU time in any output' %
                  (name, ','.join(g['caps']), g['sqlite_states']))
        g = outputs(evtrace, sched, tmp)
        if 'scheduling' not in g['caps'] or not g['sqlite_states'].get('running') or not g['chrome_running'] \
                or g['ctf_switches'] <= 0 or not g['perfetto_prev_comm'] or 'running' not in g['report_states'] \
                or not g['stats_cpu'] or 'active' in g['sqlite_states']:
            fail('demo_threadx.trx (records scheduling): %r' % g)
        else:
            print('ok demo_threadx.trx: scheduling in every output (%d running intervals, %d CTF switches)' %
                  (g['sqlite_states']['running'], g['ctf_switches']))
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())

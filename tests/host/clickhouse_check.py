"""ClickHouse export against a real server (tests/support/clickhouse_server.py starts Debian's
clickhouse-server in a temporary folder and stops it). Modes:

load      every readable sample (one trace each) and a synthetic trace of N events (default 10 M)
          loaded with `convert --to clickhouse`; every query of docs/clickhouse.md §4 run; each
          trace's answer equals the same question asked of its SQLite export (`convert --to
          sqlite`) and the figures of `evtrace stats --json` (events, lost, errors, time unit, ISR
          time, and each context's events, cpu_time and load_pct); evtrace's peak RSS < 64 MB.
cluster   two servers, one cluster, Distributed tables over MergeTree tables on each: traces
          loaded through shard 0 land on both shards; every documented query through the
          Distributed tables equals the sum (union) of the same query on each shard's local tables.
failures  server down, an INSERT refused (HTTP 500), the server killed mid-load, schema mismatch
          (missing table, column of another type), a rerun with the same trace id (no duplicate).
secure    (issue 31) a server with an https_port (a certificate from a CA the test makes with
          openssl) and a user with a password: a load over HTTPS as that user (CLICKHOUSE_USER /
          CLICKHOUSE_PASSWORD, --ca-file) stores exactly the rows of the same load over HTTP; no
          --ca-file fails verification, --insecure passes; a wrong password fails loudly without
          showing it; a server that drips one byte every 2 s ends at --timeout; a live --listen
          load stopped by SIGINT keeps what it read (its traces row is written).

Usage: clickhouse_check.py MODE EVTRACE DATA_DIR DOCS_MD [SYNTHETIC_EVENTS]"""
import atexit
import concurrent.futures
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'support'))
sys.path.insert(0, HERE)
from clickhouse_server import ClickHouse  # noqa: E402
from export_common import readable_samples  # noqa: E402

DB = 'evtrace'
RSS_LIMIT_KB = 64 * 1024
FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('FAIL: ' + msg, flush=True)


def die(msg):
    print('FAIL: ' + msg, flush=True)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def doc_queries(md):
    """The fenced sql blocks of §4, in order, with their '### Qn.' titles."""
    text = open(md).read()
    sec = text.split('## 4. Fleet queries', 1)[1].split('\n## ', 1)[0]
    out = re.findall(r'### (Q\d+)\.[^\n]*\n(?:(?!### ).)*?```sql\n(.*?)```', sec, re.S)
    if len(out) < 8:
        die('docs/clickhouse.md §4 has %d queries, want at least 8' % len(out))
    return out


# The same question asked of one trace's SQLite export. Each answer row is the ClickHouse row
# without its first column (the label, which the test sets to the trace id) and in the same order;
# Q3's first column is trace_id itself and its second the board label.
SQLITE = {
    'Q1': "SELECT (SELECT time_unit FROM traces), count(*), max(dur), sum(dur) FROM isrs WHERE truncated = 0 "
          "HAVING count(*) > 0",
    'Q2': "SELECT count(*), max(load_pct), sum(load_pct) FROM contexts WHERE class = 'thread' HAVING count(*) > 0",
    'Q3': "SELECT format, lost, (SELECT count(*) FROM losses) FROM traces "
          "WHERE lost > 0 OR (SELECT count(*) FROM losses) > 0",
    'Q4': "SELECT (SELECT time_unit FROM traces), count(*), max(dur), sum(dur) FROM thread_states "
          "WHERE state = 'blocked' AND instr(lower(ifnull(service, '')), 'mutex') > 0 HAVING count(*) > 0",
    'Q5': "SELECT name, count(*), sum(dur), max(depth) FROM isrs GROUP BY name",
    'Q6': "SELECT name, count(*), sum(dur), max(dur) FROM slices WHERE cat = 'svc' GROUP BY name",
    'Q7': "SELECT object, max(value), count(*) FROM counters WHERE name = 'queue depth' GROUP BY object",
    'Q8': "SELECT kind, count(*) FROM events GROUP BY kind",
    'Q9': "SELECT (SELECT time_unit FROM traces), state, count(*), sum(dur) FROM thread_states GROUP BY state",
    'Q10': "SELECT kind, count(*) FROM flows GROUP BY kind",
}


def ch_rows(ch, sql, shard=0):
    body = ch.query(sql.strip() + '\nFORMAT JSONCompact', shard=shard)
    return [tuple(r) for r in json.loads(body)['data']]


def norm(v):
    """ClickHouse JSON gives Int64 as strings (output_format_json_quote_64bit_integers)."""
    if isinstance(v, str) and re.fullmatch(r'-?\d+', v):
        return int(v)
    if isinstance(v, float) and v == int(v) and abs(v) < 2**53:
        return v
    return v


def same(a, b):
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        x, y = norm(x), norm(y)
        if isinstance(x, float) or isinstance(y, float):
            if x is None or y is None or abs(float(x) - float(y)) > 1e-9 * max(1.0, abs(float(x)), abs(float(y))):
                return False
        elif x != y:
            return False
    return True


def same_rows(got, want):
    key = lambda r: tuple('' if v is None else str(norm(v)) for v in r)  # noqa: E731
    got, want = sorted(got, key=key), sorted(want, key=key)
    return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))


def apply_schema(evtrace, ch, shard=0, cluster=None):
    cmd = [evtrace, 'clickhouse-schema'] + (['--cluster', cluster] if cluster else [])
    r = run(cmd)
    if r.returncode != 0:
        die('clickhouse-schema: ' + r.stderr)
    for st in r.stdout.split(';\n'):
        st = re.sub(r'(?m)^--.*$', '', st).strip()
        if cluster:  # no ZooKeeper here: each server gets the statements without ON CLUSTER
            st = st.replace(' ON CLUSTER ' + cluster, '')
        if st:
            ch.query(st, shard=shard)


def load(evtrace, url, files, ids, labels=None, env=None):
    cmd = [evtrace, 'convert'] + files + ['--to', 'clickhouse', '-o', url]
    for i in ids:
        cmd += ['--trace-id', i]
    for k, v in (labels or []):
        cmd += ['--label', '%s=%s' % (k, v)]
    t0 = time.time()
    hwm = 0
    with tempfile.TemporaryFile('w+') as o, tempfile.TemporaryFile('w+') as e:
        p = subprocess.Popen(cmd, stdout=o, stderr=e, text=True, env=dict(os.environ, **(env or {})))
        # evtrace's own peak RSS: VmHWM of its address space, sampled while it runs (wait4's
        # ru_maxrss would include the Python process it was spawned from)
        while p.poll() is None:
            try:
                with open('/proc/%d/status' % p.pid) as st:
                    for line in st:
                        if line.startswith('VmHWM:'):
                            hwm = max(hwm, int(line.split()[1]))
            except OSError:
                pass
            time.sleep(0.02)
        o.seek(0)
        e.seek(0)
        r = subprocess.CompletedProcess(cmd, p.returncode, o.read(), e.read())
    r.maxrss_kb = hwm
    if 'Sanitizer' in r.stderr or 'runtime error:' in r.stderr:
        fail('sanitizer report from %s:\n%s' % (' '.join(cmd), r.stderr[-4000:]))
    return r, time.time() - t0


def label_all(tid):
    return [('board', tid), ('fw', tid), ('build', tid)]


def synthetic_spec(tmp, events):
    p = os.path.join(tmp, 'synthetic_%d.txt' % events)
    with open(p, 'w') as f:
        f.write('evtrace-synthetic 1\nevents %d\nthreads 8\nhz 1000000\nlost_every 250000\n' % events)
    return p


def stats_checks(ch, tid, st, contexts):
    """The trace's rows against `evtrace stats --json` of the same file: the trace's totals, and
    with `contexts` each context's events, cpu_time, load_pct, switches and (NULL where stats
    leaves them out) timeouts, wait_aborts, preemptions, isr_preemptions, yields and time_slices (NULL
    too where some of the context's time slices are not known: time_slices_unknown)."""
    tr = ch_rows(ch, "SELECT events, lost, time_unit, errors FROM %s.traces WHERE trace_id = '%s'" % (DB, tid))
    if len(tr) != 1:
        fail('%s: %d traces rows' % (tid, len(tr)))
        return
    ev, lost, unit, errors = tr[0]
    if not same((ev, lost, unit, errors), (st['events'], st['lost']['count'], st['time_unit'], st['errors'])):
        fail('%s: traces row (events, lost, unit, errors) %r, stats %r' %
             (tid, tr[0], (st['events'], st['lost']['count'], st['time_unit'], st['errors'])))
    n = ch_rows(ch, "SELECT count() FROM %s.events WHERE trace_id = '%s'" % (DB, tid))[0][0]
    if norm(n) != st['events']:
        fail('%s: %s events rows, stats says %d events' % (tid, n, st['events']))
    isr = ch_rows(ch, "SELECT sum(dur) FROM %s.isrs WHERE trace_id = '%s' AND depth = 0" % (DB, tid))[0][0]
    if norm(isr) != st['isr_time']:
        fail('%s: outermost ISR time %s, stats isr_time %s' % (tid, isr, st['isr_time']))
    if not contexts:
        return
    ctx = {}
    for c, name, cls, events, cpu, load, *more in ch_rows(
            ch, "SELECT ctx, name, class, events, cpu_time, load_pct, switches, timeouts, wait_aborts, preemptions, "
                "isr_preemptions, yields, time_slices FROM %s.contexts WHERE trace_id = '%s'" % (DB, tid)):
        ctx[(None if c is None else norm(c) & (2**64 - 1), cls)] = (norm(events), norm(cpu), load) + \
            tuple(None if v is None else norm(v) for v in more)
    for c in st['contexts']:
        key = (c.get('ctx'), c['class'])
        got = ctx.get(key)
        want = (c['events'], c['cpu_time'], c['load_pct'], c['switches']) + tuple(
            c.get(k) for k in ('timeouts', 'wait_aborts', 'preemptions', 'isr_preemptions', 'yields')) + (
            None if c.get('time_slices_unknown') else c.get('time_slices'),)
        if got is None or not same(got, want):
            fail('%s: context %r (events, cpu_time, load_pct) %r, stats %r' % (tid, key, got, want))


def mode_load(evtrace, data, docs, nsyn, contexts=True):
    queries = doc_queries(docs)
    for q, _ in queries:
        if q not in SQLITE:
            die('docs/clickhouse.md %s has no SQLite counterpart in this test' % q)
    tmp = tempfile.mkdtemp(prefix='evt-ch-load-')
    atexit.register(shutil.rmtree, tmp, True)  # also when die()/fail() exit
    with ClickHouse(1) as ch:
        apply_schema(evtrace, ch)
        url = ch.urls[0] + '?database=' + DB
        files = readable_samples(evtrace, data)
        traces = []  # (trace id, file)
        for i, f in enumerate(files):
            tid = 'sample%02d' % i
            r, _ = load(evtrace, url, [f], [tid], label_all(tid))
            if r.returncode not in (0, 1):
                die('loading %s: exit %d: %s' % (f, r.returncode, r.stderr))
            traces.append((tid, f))
        syn = synthetic_spec(tmp, nsyn)
        r, secs = load(evtrace, url, [syn], ['synthetic'], label_all('synthetic'))
        rss = r.maxrss_kb
        if r.returncode != 0:
            die('loading the synthetic trace: exit %d: %s' % (r.returncode, r.stderr))
        traces.append(('synthetic', syn))
        print('synthetic: %d events in %.1f s (%.2f M events/s) into the server; evtrace peak RSS %d KB'
              % (nsyn, secs, nsyn / secs / 1e6, rss), flush=True)
        if rss == 0:
            fail('evtrace peak RSS not measured (no /proc/PID/status sample while it ran)')
        if rss >= RSS_LIMIT_KB:
            fail('evtrace peak RSS %d KB, limit %d KB' % (rss, RSS_LIMIT_KB))
        n = ch_rows(ch, 'SELECT count() FROM %s.traces' % DB)[0][0]
        if norm(n) != len(traces):
            fail('%s traces rows, %d traces loaded' % (n, len(traces)))

        answers = {q: ch_rows(ch, sql) for q, sql in queries}
        for q, rows in answers.items():
            print('%s: %d rows' % (q, len(rows)), flush=True)
            if not rows:  # every query must have something to compare on these traces
                fail('%s: no rows on the loaded traces' % q)
        causes = 0
        for tid, f in traces:
            db = os.path.join(tmp, tid + '.sqlite')
            r = run([evtrace, 'convert', '-q', f, '--to', 'sqlite', '-o', db])
            if r.returncode not in (0, 1):
                die('sqlite export of %s: %s' % (f, r.stderr))
            con = sqlite3.connect(db)
            for q, _ in queries:
                want = [tuple(x) for x in con.execute(SQLITE[q]).fetchall()]
                if q == 'Q3':
                    got = [row[2:] for row in answers[q] if row[0] == tid]
                    if any(row[1] != tid for row in answers[q] if row[0] == tid):
                        fail('%s: Q3 board label is not the trace id' % tid)
                else:
                    got = [row[1:] for row in answers[q] if row[0] == tid]
                if not same_rows(got, want):
                    fail('%s (%s): %s: ClickHouse %r, SQLite %r' % (tid, os.path.basename(f), q, got[:8], want[:8]))
            # why each wait ended (a column added after the first schema): the same in both
            want = [tuple(x) for x in con.execute('SELECT cause, count(*) FROM wakeups GROUP BY 1').fetchall()]
            got = ch_rows(ch, "SELECT cause, count() FROM %s.wakeups WHERE trace_id = '%s' GROUP BY cause" % (DB, tid))
            if not same_rows(got, want):
                fail('%s (%s): wakeups per cause: ClickHouse %r, SQLite %r' % (tid, os.path.basename(f), got, want))
            causes += sum(norm(k) for c, k in want if c is not None)
            con.close()
            os.unlink(db)
            st = run([evtrace, 'stats', '--json', f])
            if st.returncode not in (0, 1):
                die('stats %s: %s' % (f, st.stderr))
            stats_checks(ch, tid, json.loads(st.stdout), contexts)
        if causes == 0:
            fail('no loaded trace has a wakeups row with a cause: the cause column is not checked')
        print('checked %d traces x %d queries against SQLite and stats; %d wake-ups with a cause'
              % (len(traces), len(queries), causes))


def mode_cluster(evtrace, data, docs):
    queries = doc_queries(docs)
    with ClickHouse(2) as ch:
        for s in (0, 1):
            apply_schema(evtrace, ch, shard=s, cluster=ch.cluster)
        url = ch.urls[0] + '?database=%s&insert_distributed_sync=1' % DB
        files = readable_samples(evtrace, data)
        ids = ['fleet%02d' % i for i in range(len(files))]
        for f, tid in zip(files, ids):
            r, _ = load(evtrace, url, [f], [tid], label_all(tid))
            if r.returncode not in (0, 1):
                die('loading %s into the cluster: exit %d: %s' % (f, r.returncode, r.stderr))
        per_shard = [norm(ch_rows(ch, 'SELECT count() FROM %s.traces_local' % DB, shard=s)[0][0]) for s in (0, 1)]
        print('traces per shard: %r' % per_shard)
        if sum(per_shard) != len(files) or 0 in per_shard:
            fail('traces per shard %r for %d traces (both shards must hold some)' % (per_shard, len(files)))
        for q, sql in queries:
            whole = ch_rows(ch, sql)
            local = re.sub(r'\b%s\.(\w+)' % DB, lambda m: '%s.%s_local' % (DB, m.group(1)), sql)
            local = local.replace('GLOBAL ', '')
            parts = ch_rows(ch, local, shard=0) + ch_rows(ch, local, shard=1)
            # every group is one trace (labels = trace id), so the parts never share a group
            if not same_rows(whole, parts):
                fail('%s: over the Distributed tables %d rows, the shards together %d: %r vs %r'
                     % (q, len(whole), len(parts), whole[:4], parts[:4]))
            if not whole:
                fail('%s: no rows over the cluster' % q)
        total = norm(ch_rows(ch, 'SELECT sum(events) FROM %s.traces' % DB)[0][0])
        parts = sum(norm(ch_rows(ch, 'SELECT sum(events) FROM %s.traces_local' % DB, shard=s)[0][0]) for s in (0, 1))
        if total != parts:
            fail('fleet events %d, shards %d' % (total, parts))
        # a trace id already on the cluster is refused, not duplicated
        r, _ = load(evtrace, url, [files[0]], [ids[0]])
        if r.returncode != 3 or 'already loaded' not in r.stderr or ids[0] not in r.stderr:
            fail('reloading %s on Distributed tables: exit %d: %s' % (ids[0], r.returncode, r.stderr))
        # a column an older evtrace's Distributed table lacks: refused, with what to run on the shards
        ch.query('ALTER TABLE %s.wakeups DROP COLUMN cause' % DB, shard=0)
        r, _ = load(evtrace, url, [files[0]], ['t-older'])
        expect_fail(r, 'older Distributed table', 'table evtrace.wakeups has no column cause',
                    'add it on every shard (ALTER TABLE evtrace.wakeups_local ADD COLUMN `cause` Nullable(String))',
                    'nothing loaded')
        ch.query('ALTER TABLE %s.wakeups ADD COLUMN cause Nullable(String)' % DB, shard=0)
        print('cluster: %d traces on 2 shards, %d queries: Distributed = shard 0 + shard 1' % (len(files), len(queries)))


def expect_fail(r, what, *needles):
    print('%s: exit %d: %s' % (what, r.returncode, r.stderr.strip()), flush=True)
    if r.returncode != 3:
        fail('%s: exit %d, want 3; stderr: %s' % (what, r.returncode, r.stderr))
    for n in needles:
        if n not in r.stderr:
            fail('%s: message lacks %r: %s' % (what, n, r.stderr))


def counts(ch, tid):
    out = {}
    for t in ('traces', 'contexts', 'events', 'thread_states', 'slices', 'isrs', 'losses'):
        out[t] = norm(ch_rows(ch, "SELECT count() FROM %s.%s WHERE trace_id = '%s'" % (DB, t, tid))[0][0])
    return out


def mode_failures(evtrace, data, docs):
    tmp = tempfile.mkdtemp(prefix='evt-ch-fail-')
    atexit.register(shutil.rmtree, tmp, True)  # also when die()/fail() exit
    sample = os.path.join(data, 'threadx_tracex', 'demo_threadx.trx')
    with ClickHouse(1) as ch:
        url = ch.urls[0] + '?database=' + DB
        # schema missing entirely
        ch.query('CREATE DATABASE %s' % DB)
        r, _ = load(evtrace, url, [sample], ['t-missing'])
        expect_fail(r, 'no tables', 'schema mismatch', 'evtrace.traces does not exist', 't-missing', 'nothing loaded')
        # a column of another type
        apply_schema(evtrace, ch)
        ch.query('ALTER TABLE %s.isrs MODIFY COLUMN dur Int32' % DB)
        r, _ = load(evtrace, url, [sample], ['t-type'])
        expect_fail(r, 'column type', 'column evtrace.isrs.dur is Int32, evtrace writes Int64', 't-type')
        ch.query('ALTER TABLE %s.isrs MODIFY COLUMN dur Int64' % DB)
        # tables an older evtrace created (columns it did not write yet): the load adds them, says
        # so, and loads; the other rows of those tables get NULL there
        ch.query('ALTER TABLE %s.losses DROP COLUMN count' % DB)
        ch.query('ALTER TABLE %s.wakeups DROP COLUMN cause' % DB)
        r, _ = load(evtrace, url, [sample], ['t-col'])
        if r.returncode != 0 or 'added to evtrace\'s tables, which an older evtrace created: ' \
                'losses.count Nullable(Int64), wakeups.cause Nullable(String)' not in r.stderr.replace('\n', ' '):
            fail('older tables: exit %d, want both columns added and said: %s' % (r.returncode, r.stderr))
        have = ch_rows(ch, "SELECT table, name, type FROM system.columns WHERE database = '%s' AND "
                           "((table = 'losses' AND name = 'count') OR (table = 'wakeups' AND name = 'cause')) "
                           "ORDER BY table" % DB)
        if [tuple(norm(v) for v in row) for row in have] != [('losses', 'count', 'Nullable(Int64)'),
                                                              ('wakeups', 'cause', 'Nullable(String)')]:
            fail('older tables: columns %r after the load, want losses.count and wakeups.cause' % have)
        r, _ = load(evtrace, url, [sample], ['t-col2'])
        if r.returncode != 0 or 'older evtrace' in r.stderr:
            fail('a second load into the upgraded tables: exit %d, %s' % (r.returncode, r.stderr))
        # two loads into older tables at once: both add (or find) the column and load
        ch.query('ALTER TABLE %s.wakeups DROP COLUMN cause' % DB)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            both = list(pool.map(lambda tid: load(evtrace, url, [sample], [tid])[0], ['t-race1', 't-race2']))
        said = sum('older evtrace' in r.stderr for r in both)
        if any(r.returncode != 0 for r in both) or said < 1 or counts(ch, 't-race1') != counts(ch, 't-race2'):
            fail('two loads into older tables at once: exits %r, %d said they added the column: %r'
                 % ([r.returncode for r in both], said, [r.stderr for r in both]))
        # a column the server cannot add (a readonly user): refused before anything is loaded
        ch.query('ALTER TABLE %s.wakeups DROP COLUMN cause' % DB)
        r, _ = load(evtrace, url + '&readonly=1', [sample], ['t-col-ro'])
        expect_fail(r, 'older table, readonly', 'table evtrace.wakeups has no column cause', 'adding it failed',
                    'readonly', 't-col-ro', 'nothing loaded')
        ch.query('ALTER TABLE %s.wakeups ADD COLUMN cause Nullable(String)' % DB)
        # an INSERT refused by the server: HTTP 500 and its exception text, verbatim
        r, _ = load(evtrace, url + '&readonly=1', [sample], ['t-ro'])
        expect_fail(r, 'refused insert', 'HTTP 500', 'readonly', 't-ro', 'rows committed: none')
        # a rerun with the same trace id replaces, never duplicates
        r, _ = load(evtrace, url, [sample], ['t-twice'], [('board', 'b1')])
        if r.returncode != 0:
            die('first load: ' + r.stderr)
        first = counts(ch, 't-twice')
        r, _ = load(evtrace, url, [sample], ['t-twice'], [('board', 'b2')])
        second = counts(ch, 't-twice')
        if r.returncode != 0 or first != second or first['traces'] != 1:
            fail('rerun: exit %d, rows %r then %r' % (r.returncode, first, second))
        board = ch_rows(ch, "SELECT DISTINCT labels.value[1] FROM %s.events WHERE trace_id = 't-twice'" % DB)
        if board != [('b2',)]:
            fail('rerun: events labels %r, want only the second load\'s b2' % board)
        # several FILEs: one --trace-id each, or none
        r, _ = load(evtrace, url, [sample, sample], ['only-one'])
        if r.returncode != 2 or 'once per FILE' not in r.stderr:
            fail('two FILEs, one --trace-id: exit %d: %s' % (r.returncode, r.stderr))
        r, _ = load(evtrace, url, [sample, sample], [])
        uuids = re.findall(r'trace ([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}) loaded', r.stderr)
        if r.returncode != 0 or len(set(uuids)) != 2:
            fail('two FILEs without ids: exit %d, %r: %s' % (r.returncode, uuids, r.stderr))
        # the server killed mid-load: exit 3 naming what was committed; nothing marked complete
        syn = synthetic_spec(tmp, 3000000)
        cmd = [evtrace, 'convert', syn, '--to', 'clickhouse', '-o', url, '--trace-id', 't-kill']
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, EVT_CH_BATCH_ROWS='100000'))
        deadline = time.time() + 120
        while time.time() < deadline and p.poll() is None:
            try:  # kill once some batches are in
                if norm(ch_rows(ch, "SELECT count() FROM %s.events WHERE trace_id = 't-kill'" % DB)[0][0]) >= 300000:
                    break
            except RuntimeError:
                pass
            time.sleep(0.05)
        ch.kill(0)
        out, err = p.communicate(timeout=300)
        r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
        expect_fail(r, 'server killed mid-load', 't-kill', 'rows committed:', 'traces row (the commit marker) was not written')
        m = re.search(r'events (\d+)', err)
        if not m or int(m.group(1)) < 100000:
            fail('server killed mid-load: no committed events count in: %s' % err)
        # the server down: connection refused
        r, _ = load(evtrace, url, [sample], ['t-down'])
        expect_fail(r, 'server down', 'cannot connect to 127.0.0.1:', 'Connection refused', 't-down')
        # back up: the killed load left committed rows and no traces row; a rerun replaces them
        ch.restart(0)
        left = counts(ch, 't-kill')
        if left['traces'] != 0 or (m and left['events'] < int(m.group(1))):
            fail('after the kill: rows %r, the message said events %s committed' % (left, m and m.group(1)))
        r, _ = load(evtrace, url, [syn], ['t-kill'])
        again = counts(ch, 't-kill')
        if r.returncode != 0 or again['traces'] != 1 or again['events'] != 3000000:
            fail('rerun after the kill: exit %d, rows %r: %s' % (r.returncode, again, r.stderr))
        print('after the kill: %r; after the rerun: %r' % (left, again))
    print('failures: all loud, exit 3, with the trace id and the rows committed' if not FAILS else '')


def table_rows(ch, tid):
    """Every row of trace tid in every table (trace_id left out), sorted: the load's content."""
    out = {}
    for t in ('traces', 'contexts', 'objects', 'events', 'thread_states', 'slices', 'isrs', 'counters', 'flows',
              'losses'):
        rows = ch_rows(ch, "SELECT * FROM %s.%s WHERE trace_id = '%s'" % (DB, t, tid))
        out[t] = sorted(tuple(norm(v) for v in r[1:]) for r in rows)
    return out


def drip_server():
    """A server on 127.0.0.1 that answers every connection one byte every 2 s, for ever (until the
    test closes it). Returns (port, stop function)."""
    import socket
    import threading
    ls = socket.socket()
    ls.bind(('127.0.0.1', 0))
    ls.listen(8)
    stop = threading.Event()

    def serve(c):
        msg = b'HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n' + b'x' * 100000
        try:
            c.settimeout(0.5)
            try:
                c.recv(65536)
            except OSError:
                pass
            for b in msg:
                if stop.wait(2.0):
                    break
                c.sendall(bytes([b]))
        except OSError:
            pass
        c.close()

    def accept():
        ls.settimeout(0.2)
        while not stop.is_set():
            try:
                c, _ = ls.accept()
            except OSError:
                continue
            threading.Thread(target=serve, args=(c,), daemon=True).start()
        ls.close()

    threading.Thread(target=accept, daemon=True).start()
    return ls.getsockname()[1], stop.set


def mode_secure(evtrace, data, docs):
    sample = os.path.join(data, 'threadx_tracex', 'demo_threadx.trx')
    pw = 's3cret pw%'
    with ClickHouse(1, https=True, users={'evt': pw}) as ch:
        apply_schema(evtrace, ch)
        http = ch.urls[0] + '?database=' + DB
        https = ch.https_urls[0] + '?database=' + DB
        r, _ = load(evtrace, http, [sample], ['plain'])
        if r.returncode != 0:
            die('load over http: ' + r.stderr)
        cred = {'CLICKHOUSE_USER': 'evt', 'CLICKHOUSE_PASSWORD': pw}
        r, _ = load(evtrace, https, [sample, '--ca-file', ch.ca_file], ['tls'], env=cred)
        if r.returncode != 0:
            fail('load over https as evt: exit %d: %s' % (r.returncode, r.stderr))
        a, b = table_rows(ch, 'plain'), table_rows(ch, 'tls')
        if a != b or not a['events']:
            fail('https load differs from the http load: %s' % {t: (len(a[t]), len(b[t])) for t in a})
        else:
            print('https load = http load: %s' % {t: len(a[t]) for t in a if a[t]})
        # no CA given: the test CA is unknown to the system, verification fails loudly
        r, _ = load(evtrace, https, [sample], ['tls-noca'], env=cred)
        expect_fail(r, 'https without --ca-file', 'TLS', '--ca-file', 'tls-noca')
        r, _ = load(evtrace, https, [sample, '--insecure'], ['tls-insecure'], env=cred)
        if r.returncode != 0:
            fail('--insecure: exit %d: %s' % (r.returncode, r.stderr))
        # a wrong password: loud, and never shown (nor the right one)
        pwfile = os.path.join(ch.dir, 'pw.txt')
        with open(pwfile, 'w') as f:
            f.write('wrong-one\n')
        r, _ = load(evtrace, https, [sample, '--ca-file', ch.ca_file, '--user', 'evt', '--password-file', pwfile],
                    ['badpw'])
        expect_fail(r, 'wrong password', 'HTTP', 'badpw')
        if 'wrong-one' in r.stderr or pw in r.stderr:
            fail('the password shows in the message: ' + r.stderr)
        # a password in the URL: taken out, works, never echoed
        r, _ = load(evtrace, ch.https_urls[0].replace('https://', 'https://evt:s3cret%20pw%25@') + '?database=' + DB,
                    [sample, '--ca-file', ch.ca_file], ['urlpw'])
        if r.returncode != 0 or 's3cret' in r.stderr:
            fail('credentials in the URL: exit %d: %s' % (r.returncode, r.stderr))
        # a drip server: --timeout 3 ends it (without: 600 s by default)
        port, stop = drip_server()
        t0 = time.time()
        r, _ = load(evtrace, 'http://127.0.0.1:%d/?database=%s' % (port, DB), [sample, '--timeout', '3'], ['drip'])
        el = time.time() - t0
        stop()
        expect_fail(r, 'drip server', '--timeout 3')
        if el > 30:
            fail('drip server: ended after %.1f s, --timeout 3' % el)
        print('drip server: ended after %.1f s (--timeout 3)' % el)
        # a live load stopped by SIGINT: what arrived is loaded, with its traces row
        rkh = os.path.join(data, 'rkh', 'usr_events.bin')
        import socket
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        lport = s.getsockname()[1]
        s.close()
        p = subprocess.Popen([evtrace, 'convert', '--listen', '127.0.0.1:%d' % lport, '--to', 'clickhouse', '-o', http,
                              '--trace-id', 'live'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        conn = None
        for _ in range(200):
            try:
                conn = socket.create_connection(('127.0.0.1', lport), timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        if conn:
            conn.sendall(open(rkh, 'rb').read())
            time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
        if conn:
            conn.close()
        n = norm(ch_rows(ch, "SELECT count() FROM %s.traces WHERE trace_id = 'live'" % DB)[0][0])
        ev = norm(ch_rows(ch, "SELECT count() FROM %s.events WHERE trace_id = 'live'" % DB)[0][0])
        if p.returncode != 0 or n != 1 or not ev or 'stopped by SIGINT: kept' not in err:
            fail('live load stopped by SIGINT: exit %d, traces %s, events %s: %s' % (p.returncode, n, ev, err))
        else:
            print('live load stopped by SIGINT: %s events loaded, traces row written' % ev)


def main():
    if len(sys.argv) < 5:
        die(__doc__)
    mode, evtrace, data, docs = sys.argv[1:5]
    nsyn = int(sys.argv[5]) if len(sys.argv) > 5 else 10000000
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # ctest timeout: stop the servers too
    {'load': lambda: mode_load(evtrace, data, docs, nsyn),
     'cluster': lambda: mode_cluster(evtrace, data, docs),
     'failures': lambda: mode_failures(evtrace, data, docs),
     'secure': lambda: mode_secure(evtrace, data, docs)}[mode]()
    if FAILS:
        print('%d failures' % len(FAILS))
        sys.exit(1)
    print('clickhouse %s: OK' % mode)


if __name__ == '__main__':
    main()

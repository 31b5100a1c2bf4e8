"""SQLite exporter and `evtrace query` test: for every readable sample and a synthetic trace with
lost data and objects: the schema (tables, columns, indexes) is the one of tl_tables.def plus the
version-1 tables (meta, lost, the spans view); every row of `events` equals `evtrace dump --json`
of the same trace (order, id, name, kind, ts, ctx, args, fields, data); contexts, objects, lost
ranges, ISR and slice counts agree with the dump; `evtrace query` on the trace itself (temporary
database) and on the database gives the dump's counts; SQLite's integrity_check finds the
database sound."""
import json
import os
import re
import sqlite3
import sys
import tempfile
from export_common import fail, run, readable_samples, dump


def def_tables(path):
    """{table: [columns]} from src/host/timeline/tl_tables.def."""
    text = open(path).read().replace('\\\n', ' ')
    out = {}
    for t in re.findall(r'#define EVT_TL_COLS_(\w+)\(C\)', text):
        body = text.split('#define EVT_TL_COLS_%s(C)' % t)[1].split('#define')[0]
        out[t] = re.findall(r'C\((\w+),', body)
    return out


LEGACY = {
    'meta': ['key', 'value'],
    'lost': ['seq', 'ts', 'ctx', 'count', 'prev_ts', 'next_ts'],
    'spans': ['cat', 'name', 'ctx', 'begin_ts', 'end_ts', 'dur', 'depth'],  # a view
}
INDEXES = {'thread_states_ctx_t0', 'thread_states_t0', 'objects_target'}
SCHEMA = {}


def s64(v):
    return v - (1 << 64) if v is not None and v >= (1 << 63) else v


def check(evtrace, path, tmp):
    db = os.path.join(tmp, os.path.basename(path) + '.sqlite')
    r = run([evtrace, 'convert', '-q', path, '-o', db])
    if r.returncode not in (0, 1):
        fail('convert failed: ' + r.stderr.decode())
    con = sqlite3.connect(db)
    # every output carries the same valid UTF-8 text (the reader replaces invalid bytes with
    # U+FFFD): the database's text must decode strictly
    con.text_factory = lambda b: b.decode('utf-8')
    # the tables' pages are written by evtrace itself (sqlite_pages.h), not by INSERTs: SQLite
    # must find the file sound (b-trees, page accounting, NOT NULL columns)
    integrity = con.execute('PRAGMA integrity_check').fetchall()
    if integrity != [('ok',)]:
        fail('%s: integrity_check: %r' % (path, integrity[:5]))
    for t, cols in list(SCHEMA.items()) + list(LEGACY.items()):
        got = [row[1] for row in con.execute('PRAGMA table_info(%s)' % t)]
        if got != cols:
            fail('%s: table %s has columns %r, want %r' % (path, t, got, cols))
    idx = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type='index' AND name NOT LIKE 'sqlite_%'")}
    if idx != INDEXES:
        fail('%s: indexes %r' % (path, idx))
    evs = dump(evtrace, path)
    rows = con.execute('SELECT seq, ts, id, name, kind, ctx, cpu, prio, seq_no, count, target, target_name, '
                       'offset, args, fields, data, text FROM events ORDER BY seq').fetchall()
    if len(rows) != len(evs):
        fail('%s: %d rows, dump has %d events' % (path, len(rows), len(evs)))
    for i, (e, row) in enumerate(zip(evs, rows)):
        fields = dict(e.get('fields', {}))
        want = (i, s64(e['ts']), e['id'], e['name'], e['kind'], s64(e['ctx']), e.get('cpu'), s64(e.get('prio')),
                s64(e.get('seq')), s64(e.get('count')), s64(fields.get('target')), fields.get('target_name'),
                e.get('offset'), e['args'], fields or None, e.get('data'), e.get('text'))
        got = list(row)
        got[13] = json.loads(got[13])
        got[14] = json.loads(got[14]) if got[14] is not None else None
        got[15] = got[15].hex() if got[15] is not None else None
        got[13] = [a for a in got[13]]
        if tuple(got) != want:
            fail('%s: event %d differs:\n db   %r\n dump %r' % (path, i, tuple(got), want))
    # contexts: one row per context id with its event count (the timeline's: a loss record
    # belongs to no context)
    want_ctx = {}
    for e in evs:
        if e['ctx'] is not None and e['kind'] != 'lost':
            want_ctx[s64(e['ctx'])] = want_ctx.get(s64(e['ctx']), 0) + 1
    got_ctx = {c: n for c, n in con.execute('SELECT ctx, events FROM contexts WHERE ctx IS NOT NULL AND events > 0')}
    if got_ctx != want_ctx:
        fail('%s: contexts %r != %r' % (path, got_ctx, want_ctx))
    # a context with no event of its own is one the trace names only as a target (a task created,
    # woken and deleted before it ever ran: docs/model.md, a reused id's incarnation)
    targets = {s64(e['fields']['target']) for e in evs if 'target' in e.get('fields', {})}
    for (c,) in con.execute('SELECT ctx FROM contexts WHERE ctx IS NOT NULL AND events = 0'):
        if c not in targets:
            fail('%s: context %d has no event and is no event\'s target' % (path, c))
    # objects: one row per create; deletes close the latest open row of their target
    n_create = sum(1 for e in evs if e['kind'] == 'obj_create' and 'target' in e.get('fields', {}))
    n_obj = con.execute('SELECT count(*) FROM objects WHERE created_seq IS NOT NULL').fetchone()[0]
    if n_obj != n_create:
        fail('%s: %d created objects, dump has %d' % (path, n_obj, n_create))
    n_del = sum(1 for e in evs if e['kind'] == 'obj_delete' and 'target' in e.get('fields', {}))
    if con.execute('SELECT count(*) FROM objects WHERE deleted_seq IS NOT NULL').fetchone()[0] != n_del:
        fail('%s: deleted objects differ' % path)
    # lost ranges
    lost = [(i, e['ts'], e.get('count')) for i, e in enumerate(evs) if e['kind'] == 'lost']
    got_lost = con.execute('SELECT seq, ts, count FROM lost ORDER BY seq').fetchall()
    if [tuple(x) for x in got_lost] != lost:
        fail('%s: lost %r != %r' % (path, got_lost, lost))
    for seq, prev_ts, next_ts in con.execute('SELECT seq, prev_ts, next_ts FROM lost'):
        if seq > 0 and prev_ts != evs[seq - 1]['ts']:
            fail('%s: lost prev_ts' % path)
        if seq + 1 < len(evs) and next_ts != evs[seq + 1]['ts']:
            fail('%s: lost next_ts' % path)
    # ISRs and slices: one per enter (closed by its exit, a loss or the end), a service recorded
    # as one instant is a zero-length slice; the legacy spans view is both
    def n_kind(*kinds):
        return sum(1 for e in evs if e['kind'] in kinds)

    def one(sql):
        return con.execute(sql).fetchone()[0]
    got = [one('SELECT count(*) FROM isrs'), one("SELECT count(*) FROM slices WHERE cat = 'svc'"),
           one("SELECT count(*) FROM slices WHERE cat = 'func'")]
    want = [n_kind('isr_enter'), n_kind('svc_enter', 'svc'), n_kind('func_enter')]
    if got != want:
        fail('%s: isrs, svc and func slices %r, dump has %r enters' % (path, got, want))
    n_spans = one('SELECT count(*) FROM spans')
    if n_spans != sum(want):
        fail('%s: spans view has %d rows, want %d' % (path, n_spans, sum(want)))
    n_instant = one("SELECT count(*) FROM slices WHERE cat = 'svc' AND t0 = t1 AND NOT truncated")
    if n_instant < n_kind('svc'):
        fail('%s: %d instant services but only %d zero-length slices' % (path, n_kind('svc'), n_instant))
    # the traces row
    tr = con.execute('SELECT events, lost, time_unit FROM traces').fetchall()
    nlost = sum(e.get('count', 0) for e in evs if e['kind'] == 'lost')
    unit = 'ns' if any('t_ns' in e for e in evs) else 'ticks'
    if tr != [(len(evs), nlost, unit)] and evs:
        fail('%s: traces row %r, want %r' % (path, tr, (len(evs), nlost, unit)))
    if con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] != 2:
        fail('%s: schema_version' % path)
    con.close()
    # evtrace query, on the trace (temporary database) and on the database
    kinds = {}
    for e in evs:
        kinds[e['kind']] = kinds.get(e['kind'], 0) + 1
    for src in (path, db):
        q = run([evtrace, 'query', '--json', src, 'SELECT kind, count(*) AS n FROM events GROUP BY kind'])
        if q.returncode != 0:
            fail('query on %s: %s' % (src, q.stderr.decode()))
        got = {o['kind']: o['n'] for o in map(json.loads, q.stdout.decode().splitlines())}
        if got != kinds:
            fail('query on %s: %r != %r' % (src, got, kinds))
    q = run([evtrace, 'query', path, 'SELECT count(*) FROM events; SELECT value FROM meta WHERE key="events"'])
    if q.stdout.decode().split() != ['count(*)', str(len(evs)), 'value', str(len(evs))]:
        fail('text query output %r' % q.stdout.decode())
    q = run([evtrace, 'query', path, 'SELECT nope FROM events'])
    if q.returncode != 2 or b'SQL error' not in q.stderr:
        fail('bad SQL: exit %d %r' % (q.returncode, q.stderr))
    print('%s: %d events, %d contexts, %d objects, %d lost, %d spans: ok' %
          (os.path.basename(path), len(evs), len(got_ctx), n_obj, len(lost), n_spans))


def main():
    evtrace, samples, data, tables_def = sys.argv[1:5]
    SCHEMA.update(def_tables(tables_def))
    if len(SCHEMA) != 16:  # 14 + wakeups, priorities
        fail('%s: %d tables' % (tables_def, len(SCHEMA)))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ['TMPDIR'] = tmp
        for p in readable_samples(evtrace, samples) + [os.path.join(data, 'small.syn'), os.path.join(data, 'weird.syn')]:
            check(evtrace, p, tmp)
        if os.listdir(tmp) and any(f.startswith('evtrace-query-') for f in os.listdir(tmp)):
            fail('evtrace query left a temporary database behind')


if __name__ == '__main__':
    main()

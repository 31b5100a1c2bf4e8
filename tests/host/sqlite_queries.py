"""Every example query of docs/sqlite.md on a real trace (the TraceX demo, tests/data/threadx_tracex/
demo_threadx.trx): each ```sql block under a ### heading runs on the SQLite export, and its answer
is checked against figures computed here from `evtrace dump --json` (an independent pass over the
events: who runs, ISR pairs, waits, wake-ups, queue sends and receives, counter fields) and
`evtrace stats --json` (ISR, service and loss figures). A block without a check, or a check whose
block is gone from the docs, fails the test. The constructed trace with answers known by
construction is tests/host/exporters/test_sqlite_queries.c."""
import json
import os
import re
import sqlite3
import sys
import tempfile
from export_common import fail, run, dump

ISR_CTX = 0xFFFFFFFF
WAIT_STATES = ('QUEUE', 'SEMAPHORE', 'MUTEX', 'EVENT_FLAG', 'BLOCK_MEMORY', 'BYTE_MEMORY', 'SLEEP', 'IO')


def doc_blocks(path):
    """[(heading, sql)] of every ```sql block, with the ### heading above it."""
    out, head = [], None
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i].startswith('### '):
            head = lines[i][4:].strip()
        elif lines[i].strip() == '```sql':
            j = i + 1
            while lines[j].strip() != '```':
                j += 1
            if head is None:
                fail('docs: an sql block with no heading above it (line %d)' % (i + 1))
            out.append((head, '\n'.join(lines[i + 1:j])))
            i = j
        i += 1
    return out


class Oracle:
    """What the queries should answer, from the events alone (single CPU, ThreadX)."""

    def __init__(self, evs):
        self.evs = evs
        self.start, self.end = evs[0]['ts'], evs[-1]['ts']
        self.names = {}
        self.prio = {}             # latest "priority" field per context
        self.running = []          # (ctx, t0, t1)
        self.isrs = []             # (irq, t0, t1, interrupted)
        self.waits = []            # [ctx, object, service, t0, t1 or None, waker or None]
        self.ready = []            # (ctx, latency) ready -> running
        self.messages = []         # (from, to, object, t0, t1)
        run = since = stop = None
        isr_open = None
        last_svc = {}              # ctx -> (object, service)
        waiting = {}               # ctx -> index in waits
        ready_since = {}
        pend = {}                  # object -> [(ctx, t)] FIFO (timeline.h: EVT_TL_MAX_PENDING = 4096)
        for e in evs:
            t, c, k, f = e['ts'], e['ctx'], e['kind'], e.get('fields', {})
            if c is not None and e.get('ctx_name'):
                self.names[c] = e['ctx_name']
            if c is not None and c != ISR_CTX and isinstance(e.get('fields', {}).get('priority'), int):
                self.prio[c] = e['fields']['priority']
            target = f.get('target')
            if k == 'thread_run' and target is not None and target != c:   # a wake-up
                if target in waiting:
                    w = self.waits[waiting.pop(target)]
                    w[4] = t
                    w[5] = c       # the waker
                    q = pend.get(w[1], [])   # the wake-up carries the message: it is not a second flow
                    for i, (src, _t0) in enumerate(q):
                        if src != target:
                            del q[i]
                            break
                ready_since[target] = t
            if c == ISR_CTX:       # ISRs never switch
                if k == 'isr_enter':
                    isr_open = (f.get('isr_id'), t, run)
                elif k == 'isr_exit' and isr_open:
                    self.isrs.append((isr_open[0], isr_open[1], t, isr_open[2]))
                    isr_open = None
                continue
            if c != run:           # a switch: at the previous context's own stop, else now
                sw = stop if stop is not None else t
                if run is not None:
                    self.running.append((run, since, sw))
                    if stop is None:
                        ready_since[run] = sw          # preempted
                if c in ready_since:
                    self.ready.append((c, sw - ready_since.pop(c)))
                run, since = c, sw
            stop = None
            if k == 'thread_stop' and target == c:
                stop = t
                if (f.get('state') or '').replace('_SUSP', '') in WAIT_STATES:
                    obj, svc = last_svc.get(c, (None, None))
                    waiting[c] = len(self.waits)
                    self.waits.append([c, obj, svc, t, None, None])
            elif k == 'svc':
                last_svc[c] = (target, e['name'])
                if target is not None and re.search(r'SEND|PUT', e['name']):
                    q = pend.setdefault(target, [])
                    if len(q) == 4096:
                        q.pop(0)
                    q.append((c, t))
                elif target is not None and re.search(r'RECEIVE|GET', e['name']):
                    q = pend.get(target, [])
                    for i, (src, t0) in enumerate(q):
                        if src != c:
                            self.messages.append((src, c, target, t0, t))
                            del q[i]
                            break
        self.running.append((run, since, self.end))

    def cpu(self, t1, t2):
        """{ctx: running time inside [t1, t2] less the ISR time that interrupted it there}."""
        out = {}
        for c, a, b in self.running:
            if a < t2 and b > t1:
                out[c] = out.get(c, 0) + min(b, t2) - max(a, t1)
        for irq, a, b, c in self.isrs:
            if c in out and a < t2 and b > t1:
                out[c] -= min(b, t2) - max(a, t1)
        return out


def check_all(blocks, con, o, stats, params):
    names, objs = o.names, {}
    for e in o.evs:
        f = e.get('fields', {})
        if 'target' in f and 'target_name' in f:
            objs[f['target']] = f['target_name']
    t1, t2 = params['t1'], params['t2']
    by_ctx = {c['ctx']: c for c in stats['contexts']}

    def cpu_window(rows):
        want = sorted(((names[c], v) for c, v in o.cpu(t1, t2).items() if v > 0), key=lambda x: (-x[1], x[0]))
        got = [(r[0], r[1]) for r in rows]
        if got != want:
            return 'cpu per thread %r, want %r' % (got, want)
        for name, cpu, pct in rows:
            if abs(pct - round(100.0 * cpu / (t2 - t1), 2)) > 0.006:
                return 'load_pct of %s' % name

    def who_ran(rows):
        want = [(names[c], 0, max(a, t1), min(b, t2)) for c, a, b in o.running if a < t2 and b > t1 and b > a]
        if [tuple(r) for r in rows] != want:
            return 'running intervals %r, want %r' % (rows[:5], want[:5])

    def worst_isr(rows):
        want = {}
        for irq, a, b, c in o.isrs:
            n, worst, at, tot = want.get(irq, (0, -1, 0, 0))
            want[irq] = (n + 1, max(worst, b - a), a if b - a > worst else at, tot + b - a)
        got = {r[0]: (r[2], r[3], r[4], r[5]) for r in rows}
        if got != {k: (n, w, at, round(tot / n, 1)) for k, (n, w, at, tot) in want.items()}:
            return 'ISRs %r, want %r' % (got, want)
        # stats --json pairs the same ISRs
        st = {i['name']: (i['count'], i['max']) for i in stats['isrs']}
        if {r[1]: (r[2], r[3]) for r in rows} != st:
            return 'ISRs %r, stats %r' % (rows, st)

    def longest_wait(rows):
        per = {}
        for c, obj, svc, a, b, _ in o.waits:
            if b is None or obj is None:
                continue
            n, tot, best = per.get(obj, (0, 0, None))
            if best is None or b - a > best[0]:
                best = (b - a, names[c], a, svc)
            per[obj] = (n + 1, tot + b - a, best)
        want = sorted(((objs[k], best[0], best[1], best[2], best[3], n, tot) for k, (n, tot, best) in per.items()),
                      key=lambda x: (-x[1], x[0]))
        if [tuple(r) for r in rows] != want:
            return 'waits %r, want %r' % (rows, want)

    def inversions(rows):
        # a mutex wait ended by a lower-priority waker (the holder) while a middle one ran
        p = o.prio
        want = []
        mutex_waits = [w for w in o.waits if w[2] and 'MUTEX' in w[2]]
        if not mutex_waits:
            return 'the demo has no mutex wait: the check would prove nothing'
        for w in mutex_waits:
            if w[4] is None or w[5] not in p or not p[w[5]] > p[w[0]]:
                continue
            mid = {}
            for c, a, b in o.running:
                if a < w[4] and b > w[3] and p[w[0]] < p.get(c, -1) < p[w[5]]:
                    mid[c] = mid.get(c, 0) + min(b, w[4]) - max(a, w[3])
            want += sorted((w[3], w[4] - w[3], names[w[0]], names[w[5]], names[c], v) for c, v in mid.items())
        if [tuple(r) for r in rows] != want:
            return 'inversions %r, want %r' % (rows, want)

    def ready_latency(rows):
        per = {}
        for c, lat in o.ready:
            per.setdefault(c, []).append(lat)
        want = sorted(((names[c], len(v), max(v), round(sum(v) / len(v), 1)) for c, v in per.items()),
                      key=lambda x: (-x[2], x[0]))
        if [tuple(r) for r in rows] != want:
            return 'ready latency %r, want %r' % (rows, want)

    def flows_between(rows):
        a = [c for c, n in names.items() if n == params['from']][0]
        b = [c for c, n in names.items() if n == params['to']][0]
        msgs = [m for m in o.messages if m[0] == a and m[1] == b]
        got = {r[0]: r for r in rows}
        if 'message' not in got or not msgs:
            return 'no messages %r' % rows
        m = got['message']
        want = ('message', objs[msgs[0][2]], len(msgs), min(x[4] - x[3] for x in msgs), max(x[4] - x[3] for x in msgs))
        if tuple(m) != want:
            return 'messages %r, want %r' % (m, want)
        wakes = [(t, x) for t, x in ((w[4], w) for w in o.waits) if t is not None and x[0] == b]
        if 'wake' in got and got['wake'][2] > len(wakes):
            return '%d wake flows for %d ended waits' % (got['wake'][2], len(wakes))

    def losses(rows):
        if len(rows) != stats['lost']['events'] or sum(r[4] or 0 for r in rows) != stats['lost']['count']:
            return 'losses %r, stats %r' % (rows, stats['lost'])

    def top_services(rows):
        # ThreadX records services as instants: each a zero-length slice
        st = sorted(((n['name'], n['count']) for n in stats['names'] if n['kind'] == 'svc'), key=lambda x: (-x[1], x[0]))
        want = [(n, c, 0, 0) for n, c in st][:10]
        if [tuple(r) for r in rows] != want:
            return 'services %r, want %r' % (rows, want)

    def switches(rows):
        want = {}
        for c, a, b in o.running:
            want[names[c]] = want.get(names[c], 0) + 1
        got = {r[0]: r[1] for r in rows}
        if got != want:
            return 'switches %r, want %r' % (got, want)
        for r in rows:
            if r[2] + r[3] > r[1]:
                return 'more ends than switches: %r' % (r,)
        # every wait the oracle saw ended a running interval of its thread
        for name, n, blocked, _ in rows:
            c = [k for k, v in names.items() if v == name][0]
            if blocked != sum(1 for w in o.waits if w[0] == c):
                return '%s: %d blocked, oracle %d' % (name, blocked, sum(1 for w in o.waits if w[0] == c))

    def counters(rows):
        fields = {'enqueued': 'queue depth', 'sem_count': 'semaphore count', 'suspended': 'waiters',
                  'available': 'available', 'flags': 'event flags'}
        want = {}
        for e in o.evs:
            f = e.get('fields', {})
            if 'target' not in f:
                continue
            for k, name in fields.items():
                if k in f and isinstance(f[k], int):
                    key = (objs[f['target']], name)
                    n, lo, hi = want.get(key, (0, None, None))
                    want[key] = (n + 1, f[k] if lo is None else min(lo, f[k]), f[k] if hi is None else max(hi, f[k]))
        got = {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}
        if got != want:
            return 'counters %r, want %r' % (got, want)

    def whole_load(rows):
        cpu = o.cpu(o.start, o.end)
        want = sorted(((names[c], 'thread', v, round(100.0 * v / (o.end - o.start), 2)) for c, v in cpu.items() if v > 0),
                      key=lambda x: -x[2])
        isr = sum(b - a for _, a, b, _ in o.isrs)
        if isr != stats['isr_time']:
            return 'ISR time %d, stats %d' % (isr, stats['isr_time'])
        idle = (o.end - o.start) - sum(cpu.values()) - isr
        want.append(('(idle)', 'none', idle, None))
        want.sort(key=lambda x: -x[2])
        if [tuple(r) for r in rows] != want:
            return 'load %r, want %r' % (rows, want)

    def blocked_per_thread(rows):
        got = {}
        for name, state, svc, n, tot in rows:
            if state == 'blocked':
                got[(name, svc)] = (n, tot)
        want = {}
        for c, obj, svc, a, b, _ in o.waits:
            key = (names[c], svc)
            n, tot = want.get(key, (0, 0))
            want[key] = (n + 1, tot + (b if b is not None else o.end) - a)
        if got != want:
            return 'blocked %r, want %r' % (got, want)

    checks = {
        'CPU load per thread in a window [t1, t2]': cpu_window,
        'Who ran between t1 and t2': who_ran,
        'Worst ISR latency per interrupt': worst_isr,
        'Longest time blocked on one queue (or any object)': longest_wait,
        'Every priority inversion': inversions,
        'Ready-to-running latency per thread': ready_latency,
        'Message flows between two tasks': flows_between,
        'Losses: how many and where': losses,
        'Top services by total time': top_services,
        'Context switches per thread': switches,
        'Queue depth and semaphore count over time': counters,
        'CPU load of each context over the whole trace, and idle time': whole_load,
        'Time blocked per thread and reason': blocked_per_thread,
    }
    heads = [h for h, _ in blocks]
    if len(blocks) < 10:
        fail('docs/sqlite.md has %d example queries, want at least 10' % len(blocks))
    for h in checks:
        if h not in heads:
            fail('docs/sqlite.md: no query under "%s" any more (update the test)' % h)
    for h, sql in blocks:
        if h not in checks:
            fail('docs/sqlite.md: query "%s" has no check in %s' % (h, os.path.basename(__file__)))
        used = {k: v for k, v in params.items() if ':' + k in sql}
        try:
            rows = con.execute(sql, used).fetchall()
        except sqlite3.Error as e:
            fail('query "%s": %s' % (h, e))
        err = checks[h](rows)
        if err:
            fail('query "%s": %s' % (h, err))
        print('%-66s %4d rows: ok' % (h, len(rows)))


def main():
    evtrace, docs, sample = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, 'demo.sqlite')
        r = run([evtrace, 'convert', '-q', sample, '-o', db])
        if r.returncode != 0:
            fail('convert: ' + r.stderr.decode())
        evs = dump(evtrace, sample)
        st = run([evtrace, 'stats', '--json', sample])
        stats = json.loads(st.stdout.decode())
        o = Oracle(evs)
        con = sqlite3.connect(db)
        blocks = doc_blocks(docs)
        # a window over the middle of the trace (clipping), then the whole trace
        span = o.end - o.start
        for t1, t2 in ((o.start + span // 4, o.start + span // 2), (o.start, o.end)):
            print('window [%d, %d]' % (t1, t2))
            check_all(blocks, con, o, stats, {'t1': t1, 't2': t2, 'from': 'thread 1', 'to': 'thread 2'})
        con.close()
    print('sqlite_queries: ok')


if __name__ == '__main__':
    main()

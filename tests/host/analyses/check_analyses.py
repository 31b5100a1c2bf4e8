"""The analyses of `stats --json` (key "analyses", docs/analyses.md) on the real samples.

Every readable sample: `stats --json` is one JSON object with every key of docs/exports.md and the
analyses' keys; the load windows add up to the totals, which are the stats contexts' cpu_time, idle
and ISR time; response percentiles are ordered (min <= p50 <= p90 <= p99 <= max).
ThreadX samples, cross-checked against the reader's own events (`dump --json`), computed here
independently of the timeline:
- ISR response per isr_id: ISR_ENTER/ISR_EXIT paired by nesting: count, min, max, sum;
- stack usage per thread: the lowest "stk" sample inside [ctx_stack_start, +ctx_stack_size];
- queue depth ("enqueued") per queue: samples, min, max, last;
- mutex waits: MUTEX_GET whose "owner" is another thread of lower priority (higher number).
And `--window` gives that window (widened only past the window limit); a time unit on a trace
without clock is refused with exit code 2.

usage: check_analyses.py EVTRACE DATA_DIR"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from export_common import fail, run, readable_samples, dump  # noqa: E402

STATS_KEYS = ['format', 'file', 'events', 'errors', 'clock_hz', 'time_unit', 'start_ts', 'end_ts',
              'start_ns', 'end_ns', 'duration', 'cpus', 'idle_time', 'isr_time', 'lost', 'contexts',
              'isrs', 'services', 'functions', 'unmatched_exits', 'unfinished_spans', 'span_overflow',
              'names', 'incomplete']
CTX_KEYS = ['ctx', 'name', 'class', 'events', 'cpu_time', 'cpu_ticks', 'load_pct', 'switches',
            'isr_count', 'first_ts', 'last_ts']
AN_KEYS = ['unit', 'load', 'response', 'inversions', 'objects', 'flows', 'stacks', 'complete', 'error']


def stats(evtrace, path, *extra):
    r = run([evtrace, 'stats', '--json'] + list(extra) + [path])
    if r.returncode not in (0, 1):
        fail('stats failed on %s (%d): %s' % (path, r.returncode, r.stderr.decode()[:2000]))
    try:
        return json.loads(r.stdout.decode('utf-8'))
    except ValueError as e:
        fail('%s: stats --json is not JSON: %s' % (path, e))


def check_generic(path, s):
    for k in STATS_KEYS:
        if k not in s:
            fail('%s: stats key %s missing' % (path, k))
    for c in s['contexts']:
        for k in CTX_KEYS:
            if k not in c:
                fail('%s: context key %s missing' % (path, k))
    a = s.get('analyses')
    if not isinstance(a, dict):
        fail('%s: no "analyses" object' % path)
    for k in AN_KEYS:
        if k not in a:
            fail('%s: analyses key %s missing' % (path, k))
    if not a['complete'] or a['error'] is not None:
        fail('%s: analyses incomplete or in error: %r' % (path, a['error']))
    if a['unit'] != s['time_unit']:
        fail('%s: analyses unit %s, stats %s' % (path, a['unit'], s['time_unit']))
    ld = a['load']
    n = ld['windows']
    if ld['window_requested'] != 'auto' or n > 100:
        fail('%s: automatic window expected, at most 100 windows: %r / %d' % (path, ld['window_requested'], n))
    for key in ('idle', 'isr'):
        if len(ld[key]) != n:
            fail('%s: load %s has %d windows, not %d' % (path, key, len(ld[key]), n))
    if sum(ld['idle']) != s['idle_time'] or ld['totals']['idle_time'] != s['idle_time']:
        fail('%s: idle windows %d / total %d, stats idle_time %d' % (path, sum(ld['idle']), ld['totals']['idle_time'], s['idle_time']))
    if sum(ld['isr']) != s['isr_time'] or ld['totals']['isr_time'] != s['isr_time']:
        fail('%s: ISR windows %d, stats isr_time %d' % (path, sum(ld['isr']), s['isr_time']))
    # by id too: tasks created again under one name are contexts of their own (docs/model.md)
    stats_cpu = {(c['name'], c['class'], c['ctx']): c['cpu_time'] for c in s['contexts']}
    totals = {(c['name'], c['class'], c.get('id')): c['cpu_time'] for c in ld['totals']['contexts']}
    for c in ld['contexts']:
        key = (c['name'], c['class'], c.get('id'))
        if len(c['busy']) != n:
            fail('%s: %s has %d windows' % (path, c['name'], len(c['busy'])))
        if sum(c['busy']) != totals.get(key, 0) or stats_cpu.get(key) != totals.get(key, 0):
            fail('%s: %s busy windows %d, totals %r, stats cpu_time %r' % (path, c['name'], sum(c['busy']), totals.get(key), stats_cpu.get(key)))
    cap = ld['window'] * ld['cpus']
    for k in range(n):
        used = ld['idle'][k] + ld['isr'][k] + sum(c['busy'][k] for c in ld['contexts'])
        if used > cap:
            fail('%s: window %d holds %d of %d' % (path, k, used, cap))
    for group in ('tasks', 'isrs'):
        for r in a['response'][group]:
            if r['count'] and not (r['min'] <= r['p50'] <= r['p90'] <= r['p99'] <= r['max']):
                fail('%s: response %s not ordered: %r' % (path, r['name'], r))
            if len(r['worst']) > 5 or (r['worst'] and r['worst'][0]['duration'] != r['max']):
                fail('%s: response %s worst list %r' % (path, r['name'], r['worst']))
    return a


def isr_pairs(events):
    """ISR durations per isr_id from ISR_ENTER/ISR_EXIT, nested per the dump's order."""
    out, stack = {}, []
    for e in events:
        if e['name'] == 'ISR_ENTER':
            stack.append((e['fields'].get('isr_id'), e['ts']))
        elif e['name'] == 'ISR_EXIT' and stack:
            irq, t0 = stack.pop()
            out.setdefault(irq, []).append(e['ts'] - t0)
    return out


def check_threadx(evtrace, path, s, a):
    events = dump(evtrace, path)
    # ISR response
    pairs = isr_pairs(events)
    got = {r['irq']: r for r in a['response']['isrs']}
    for irq, d in pairs.items():
        r = got.get(irq)
        if not r or (r['count'], r['min'], r['max'], r['sum']) != (len(d), min(d), max(d), sum(d)):
            fail('%s: ISR %r response %r, dump %r' % (path, irq, r, (len(d), min(d), max(d), sum(d))))
    if len(got) != len(pairs):
        fail('%s: %d ISRs in the analyses, %d in the dump' % (path, len(got), len(pairs)))
    # stacks: samples in a thread's context, in range or not (the ThreadX Linux port samples the
    # pthread's own stack, outside the registry's: all out of range there)
    low, stk_of, cnt = {}, {}, {}
    for e in events:
        f = e.get('fields', {})
        if 'stk' in f and 'ctx_stack_start' in f:
            name = e.get('ctx_name')
            lo, sz = f['ctx_stack_start'], f['ctx_stack_size']
            stk_of[name] = (lo, sz)
            n, out = cnt.get(name, (0, 0))
            inside = lo <= f['stk'] <= lo + sz
            cnt[name] = (n + 1, out + (0 if inside else 1))
            if inside:
                low[name] = min(low.get(name, f['stk']), f['stk'])
    stacks = {x['name']: x for x in a['stacks']}
    if not cnt:
        fail('%s: no stack samples in the dump' % path)
    for name, (n, out) in cnt.items():
        lo, sz = stk_of[name]
        x = stacks.get(name)
        used = lo + sz - low[name] if name in low else None
        if not x or (x['samples'], x['out_of_range'], x['max_used'], x['stack_size']) != (n, out, used, sz):
            fail('%s: stack of %s: analyses %r, dump %d samples, %d out of range, max used %r' % (path, name, x, n, out, used))
    # queue depth
    depth = {}
    for e in events:
        f = e.get('fields', {})
        if 'enqueued' in f and 'target' in f:
            depth.setdefault(f.get('target_name') or f['target'], []).append(f['enqueued'])
    objs = {o['name']: o for o in a['objects']}
    for q, v in depth.items():
        o = objs.get(q)
        cs = [c for c in (o or {}).get('counters', []) if c['samples'] == len(v)]
        if not cs or (cs[0]['min'], cs[0]['max'], cs[0]['last']) != (min(v), max(v), v[-1]):
            fail('%s: queue %s counters %r, dump %d samples min %d max %d last %d' % (
                path, q, (o or {}).get('counters'), len(v), min(v), max(v), v[-1]))
        if len(cs[0]['history']) != min(len(v), 256) or [h[1] for h in cs[0]['history']] != v[:256]:
            fail('%s: queue %s history differs from the dump' % (path, q))
    # mutex waits on a lower-priority holder
    prio = {}
    waits = 0
    for e in events:
        f = e.get('fields', {})
        if e.get('ctx') is not None and 'priority' in f and e.get('ctx_name') != 'ISR':
            prio[e['ctx']] = f['priority']
        if e['name'] == 'MUTEX_GET' and f.get('owner') not in (None, 0, e['ctx']):
            if f['owner'] in prio and prio[e['ctx']] < prio[f['owner']]:
                waits += 1
    if a['inversions']['waits'] != waits:
        fail('%s: %d mutex waits on a lower priority in the analyses, %d in the dump' % (path, a['inversions']['waits'], waits))
    print('%s: %d ISRs, %d stacks, %d queues, %d mutex waits, %d inversions: agree with the dump' % (
        os.path.basename(path), len(pairs), len(cnt), len(depth), waits, a['inversions']['count']))


def check_window(evtrace, path):
    s = stats(evtrace, path, '--window', '1000')
    ld = s['analyses']['load']
    if ld['window_requested'] != 1000 or ld['window'] != 1000:
        fail('%s: --window 1000 gave %r / %r' % (path, ld['window_requested'], ld['window']))
    if ld['windows'] != (s['duration'] + 999) // 1000:
        fail('%s: %d windows of 1000 over %d' % (path, ld['windows'], s['duration']))
    r = run([evtrace, 'stats', '--window', '1ms', path])
    if r.returncode != 2 or b'clock' not in r.stderr:
        fail('%s: --window 1ms without a clock: exit %d, %r' % (path, r.returncode, r.stderr[:300]))
    r = run([evtrace, 'stats', '--window', '1ms', '--clock-hz', '1000000', '--json', path])
    ld = json.loads(r.stdout.decode())['analyses']['load']
    if r.returncode not in (0, 1) or ld['window'] != 1000000 or ld['unit'] != 'ns':
        fail('%s: --window 1ms --clock-hz 1e6: %r' % (path, ld))
    r = run([evtrace, 'stats', '--window', 'soon', path])
    if r.returncode != 2:
        fail('--window soon: exit %d' % r.returncode)


def main():
    evtrace, data = sys.argv[1], sys.argv[2]
    n = 0
    for p in readable_samples(evtrace, data):
        s = stats(evtrace, p)
        a = check_generic(p, s)
        n += 1
        if s['format'] == 'threadx' and 'threadx_' in p:
            check_threadx(evtrace, p, s, a)
    check_window(evtrace, os.path.join(data, 'threadx_tracex', 'demo_threadx.trx'))
    print('checked the analyses of %d samples' % n)


if __name__ == '__main__':
    main()

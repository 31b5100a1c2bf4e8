"""A real ThreadX trace against ThreadX's own counters (tests/data/threadx_real/README.md): the
buffer its Linux port wrote with TX_ENABLE_EVENT_TRACE and the counters its application read when it
stopped the trace (tx_thread_info_get, tx_*_performance_info_get). Checks, with `evtrace`:
- `check` is clean and `info --json` decodes every valid entry;
- each thread stops (thread_states: enters blocked or suspended) as often as ThreadX suspended it
  (suspensions), less the priority-change suspends (THREAD_SUSPEND with state PRIORITY_CHANGE);
- each thread is switched in exactly as often as ThreadX dispatched it (run_count): a relinquish
  or a time slice that gives the CPU to a thread that records nothing in its turn still counts;
- each thread is woken (the timeline's wake-ups) as often as ThreadX resumed it (resumptions),
  less the priority-change pairs ThreadX counts as resumptions (THREAD_RESUME with state
  PRIORITY_CHANGE: a mutex's inheritance re-queueing a ready owner), and a thread that ThreadX
  left suspended at a wait's end (a delayed suspension) is not woken there;
- every object's operations (stats --json "objects") are ThreadX's performance counters;
- each thread's waits that ended by their timeout and by an abort (stats --json contexts timeouts,
  wait_aborts, from the THREAD_RESUME records' wake_cause; and the SQLite wakeups rows of cause
  timeout and abort) are ThreadX's per-thread timeouts and wait_aborts, and the timeouts of each
  wait state (and the wakeups rows of cause timeout per object waited on) are the timeouts of the
  application's one object of that kind (queue, semaphore, mutex, event flags, block pool);
- each thread's preemptions (stats --json contexts preemptions, isr_preemptions: the THREAD_RESUME
  records that make their thread ThreadX's execute pointer in place of another) are ThreadX's
  solicited plus interrupt preemptions, and its interrupt preemptions; its yields (relinquishes
  that let another thread run) are ThreadX's relinquishes; its time slices (stats --json contexts
  time_slices: the TIME_SLICE records that rotate its ready list, decided from the records' ready
  lists and thresholds, none of them unknown) are ThreadX's time_slices;
- each thread's priority inversions (the inversion analysis's waits with it as the more urgent
  thread: bounded_list, which holds every such wait) are ThreadX's per-thread priority_inversions;
- the priority inheritances (stats --json analyses.inversions.inheritances, inferred from each
  waiting tx_mutex_get: ThreadX writes no record of them) are the mutex's inheritance counter, and
  the priorities table holds one inherit change per inheritance;
- the SQLite contexts table's switches, timeouts, wait_aborts, preemptions, isr_preemptions, yields
  and time_slices are ThreadX's per-thread counters as above.
Usage: check_counters.py EVTRACE TRACE COUNTERS_JSON"""
import json
import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'support'))
from evtcheck import clean_trace, run_evtrace  # noqa: E402


def main():
    evtrace, trace, counters = sys.argv[1:4]
    key = json.load(open(counters, encoding='utf-8'))
    bad = clean_trace(evtrace, trace)

    stats = json.loads(run_evtrace(evtrace, 'stats', '--json', trace).stdout)
    switches = {x['name']: x['switches'] for x in stats['contexts']}

    # priority-change resumes per thread (ThreadX counts them as resumptions; not wake-ups); the
    # timeouts per wait state
    prio_change, prio_suspend, state_timeouts, unwoken = {}, {}, {}, {}
    for line in run_evtrace(evtrace, 'dump', '--json', trace).stdout.splitlines():
        e = json.loads(line)
        f = e.get('fields', {})
        if e['name'] == 'THREAD_RESUME' and f.get('state') == 'PRIORITY_CHANGE':
            prio_change[f.get('target_name')] = prio_change.get(f.get('target_name'), 0) + 1
        if e['name'] == 'THREAD_SUSPEND' and f.get('state') == 'PRIORITY_CHANGE':
            prio_suspend[f.get('target_name')] = prio_suspend.get(f.get('target_name'), 0) + 1
        if e.get('meaning', {}).get('wake_cause') == 'timeout':
            state_timeouts[f.get('state')] = state_timeouts.get(f.get('state'), 0) + 1
        if e.get('meaning', {}).get('wake_cause') and f.get('delayed_suspension'):  # a wait's end, no wake-up
            k = (f.get('target_name'), e['meaning']['wake_cause'], f.get('state'))
            unwoken[k] = unwoken.get(k, 0) + 1

    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, 't.sqlite')
        cv = run_evtrace(evtrace, 'convert', '-q', trace, '-o', db)
        if cv.returncode != 0:
            bad.append(f'convert: exit {cv.returncode}: {cv.stderr.strip()}')
            wakeups, stops, row_causes, obj_timeouts = {}, {}, {}, {}
        else:
            con = sqlite3.connect(db)
            wakeups = dict(con.execute('SELECT c.name, count(*) FROM wakeups w JOIN contexts c ON c.ctx = w.ctx GROUP BY 1'))
            # the wake-ups' causes: per thread, and per object the thread waited on
            row_causes = {(n, cause): k for n, cause, k in con.execute(
                'SELECT c.name, w.cause, count(*) FROM wakeups w JOIN contexts c ON c.ctx = w.ctx GROUP BY 1, 2')}
            obj_timeouts = dict(con.execute("SELECT o.name, count(*) FROM wakeups w JOIN objects o ON o.target = w.object "
                                            "WHERE w.cause = 'timeout' GROUP BY 1"))
            # the times each thread stopped to wait or be suspended: entries into blocked or
            # suspended from another state (a delayed suspension goes on from blocked: one)
            stops = {}
            prev = {}
            for name, state in con.execute('SELECT c.name, s.state FROM thread_states s JOIN contexts c ON c.ctx = s.ctx '
                                           'ORDER BY c.name, s.t0'):
                if state in ('blocked', 'suspended') and prev.get(name) not in ('blocked', 'suspended'):
                    stops[name] = stops.get(name, 0) + 1
                prev[name] = state
            con.close()

    causes = {x['name']: (x.get('timeouts'), x.get('wait_aborts')) for x in stats['contexts']}
    preempts = {x['name']: (x.get('preemptions'), x.get('isr_preemptions'), x.get('yields')) for x in stats['contexts']}
    slices = {x['name']: (x.get('time_slices'), x.get('time_slices_unknown', 0)) for x in stats['contexts']}
    for t in key['threads']:
        n = t['name']
        if causes.get(n) != (t['timeouts'], t['wait_aborts']):
            bad.append(f"{n}: (timeouts, wait_aborts) {causes.get(n)}, ThreadX's ({t['timeouts']}, {t['wait_aborts']})")
        # a wait that ends in a delayed suspension has no wake-up: its cause is in no wakeups row
        rows = tuple(row_causes.get((n, c), 0) + sum(v for k, v in unwoken.items() if k[:2] == (n, c))
                     for c in ('timeout', 'abort'))
        if rows != (t['timeouts'], t['wait_aborts']):
            bad.append(f"{n}: wakeups rows with cause (timeout, abort) {rows} (with the waits that ended suspended), "
                       f"ThreadX's ({t['timeouts']}, {t['wait_aborts']})")
        # preemptions (EVT_M_PREEMPT: a resume that makes its thread ThreadX's execute pointer in
        # place of another) and yields (a relinquish that lets another thread run)
        pre = preempts.get(n)
        want = (t['solicited_preemptions'] + t['interrupt_preemptions'], t['interrupt_preemptions'], t['relinquishes'])
        if pre != want:
            bad.append(f"{n}: (preemptions, isr_preemptions, yields) {pre}, ThreadX's (solicited + interrupt "
                       f"preemptions, interrupt preemptions, relinquishes) {want}")
        # time slices (EVT_M_TIME_SLICE), every one decided (none EVT_M_SLICE_UNKNOWN)
        if slices.get(n) != (t['time_slices'], 0):
            bad.append(f"{n}: (time_slices, time_slices_unknown) {slices.get(n)}, ThreadX's time_slices "
                       f"{t['time_slices']} (none unknown)")
        if switches.get(n) != t['run_count']:
            bad.append(f"{n}: switched in {switches.get(n)} times, ThreadX's run_count {t['run_count']}")
        # ThreadX counts a suspension for each stop and for each priority-change suspend (a ready
        # thread re-queued: evtrace keeps it ready, its THREAD_SUSPEND says PRIORITY_CHANGE)
        if stops.get(n, 0) + prio_suspend.get(n, 0) != t['suspensions']:
            bad.append(f"{n}: stopped {stops.get(n, 0)} times (+{prio_suspend.get(n, 0)} priority-change suspends), "
                       f"ThreadX suspended it {t['suspensions']} times")
        want = t['resumptions'] - prio_change.get(n, 0)
        if wakeups.get(n, 0) != want:
            bad.append(f"{n}: woken {wakeups.get(n, 0)} times, ThreadX resumed it {t['resumptions']} times "
                       f"({prio_change.get(n, 0)} of them priority changes)")

    ops = {o['name']: {k: sum(v.values()) for k, v in o.get('ops', {}).items()} for o in stats['objects']}
    pairs = [('queue q_data', 'q_data', [('send', 'sent'), ('receive', 'received')]),
             ('semaphore sem_count', 'sem_count', [('give', 'puts'), ('take', 'gets')]),
             ('mutex mtx_pi', 'mtx_pi', [('release', 'puts'), ('acquire', 'gets')]),
             ('event_flags ef_main', 'ef_main', [('set', 'sets'), ('wait', 'gets')]),
             ('block_pool bp_small', 'bp_small', [('take', 'allocates'), ('give', 'releases')]),
             ('byte_pool bytes', 'bytes', [('take', 'allocates'), ('give', 'releases')]),
             # a create with TX_AUTO_ACTIVATE is an activation (tx_timer_create.c counts it)
             ('timer tmr_periodic', 'tmr_periodic', [('activate', 'activates'), ('deactivate', 'deactivates')])]
    for kk, name, what in pairs:
        for op, counter in what:
            got = ops.get(name, {}).get(op, 0)
            if got != key[kk][counter]:
                bad.append(f"{name}: {got} {op}, ThreadX's {counter} {key[kk][counter]}")

    # the application has one object of each kind: its waits' timeouts are that object's
    for kk, state in (('queue q_data', 'QUEUE_SUSP'), ('semaphore sem_count', 'SEMAPHORE_SUSP'),
                      ('mutex mtx_pi', 'MUTEX_SUSP'), ('event_flags ef_main', 'EVENT_FLAG'),
                      ('block_pool bp_small', 'BLOCK_MEMORY'), ('byte_pool bytes', 'BYTE_MEMORY')):
        if state_timeouts.get(state, 0) != key[kk]['timeouts']:
            bad.append(f"{kk}: {state_timeouts.get(state, 0)} waits ended by timeout, ThreadX's timeouts {key[kk]['timeouts']}")
        name = kk.split(' ', 1)[1]
        if obj_timeouts.get(name, 0) + sum(v for k, v in unwoken.items() if k[1:] == ('timeout', state)) != key[kk]['timeouts']:
            bad.append(f"{name}: {obj_timeouts.get(name, 0)} wakeups rows of cause timeout, ThreadX's timeouts {key[kk]['timeouts']}")

    inv = stats['analyses']['inversions']
    if inv['truncated']:
        bad.append(f"the inversion lists are truncated ({inv['truncated']}): per-thread inversions not checked")
    waits_of = {}
    for w in inv['bounded_list']:  # every wait of a more urgent thread on a worse holder
        waits_of[w['high']['name']] = waits_of.get(w['high']['name'], 0) + 1
    for t in key['threads']:
        if waits_of.get(t['name'], 0) != t['priority_inversions']:
            bad.append(f"{t['name']}: {waits_of.get(t['name'], 0)} inversion waits, ThreadX's priority_inversions "
                       f"{t['priority_inversions']}")
    if inv['inheritances'] != key['mutex mtx_pi']['inheritances']:
        bad.append(f"{inv['inheritances']} inheritances, ThreadX's {key['mutex mtx_pi']['inheritances']}")
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, 't.sqlite')
        conv = run_evtrace(evtrace, 'convert', '--to', 'sqlite', '-o', db, trace)
        if conv.returncode != 0:
            bad.append(f'convert --to sqlite: exit {conv.returncode}: {conv.stderr.strip()}')
        else:
            con = sqlite3.connect(db)
            n = con.execute("SELECT count(*) FROM priorities WHERE reason = 'inherit'").fetchone()[0]
            # the contexts table holds the same per-thread figures as stats
            for t in key['threads']:
                row = con.execute('SELECT switches, timeouts, wait_aborts, preemptions, isr_preemptions, yields, '
                                  'time_slices FROM contexts WHERE name = ?', (t['name'],)).fetchone()
                want = (t['run_count'], t['timeouts'], t['wait_aborts'],
                        t['solicited_preemptions'] + t['interrupt_preemptions'], t['interrupt_preemptions'],
                        t['relinquishes'], t['time_slices'])
                if row != want:
                    bad.append(f"{t['name']}: contexts (switches, timeouts, wait_aborts, preemptions, isr_preemptions, "
                               f"yields, time_slices) {row}, ThreadX's {want}")
            con.close()
            if n != key['mutex mtx_pi']['inheritances']:
                bad.append(f"{n} inherit rows in priorities, ThreadX's {key['mutex mtx_pi']['inheritances']} inheritances")

    checked = len(key['threads'])
    if bad:
        print('\n'.join('FAIL ' + b for b in bad))
        sys.exit(1)
    print(f'ok: {checked} threads (switches in = run_count, wake-ups = resumptions less priority changes, '
          f'stops = suspensions less priority changes, timeouts, wait aborts, preemptions, relinquishes, '
          f'time slices and '
          f'priority inversions), '
          f'the timeouts of 6 objects, '
          f'{sum(len(w) for _, _, w in pairs)} object counters and {inv["inheritances"]} inheritances equal ThreadX\'s')


if __name__ == '__main__':
    main()

"""An independent re-implementation, from `evtrace dump --json` alone, of the scheduling rules that
src/host/timeline/timeline.h documents: which context runs on each CPU, the context switches
(sched_switch: prev, next, the state prev goes to) and the wake-ups (sched_waking). The Perfetto
and Chrome export tests compare the exporters' output with it, so a switch the timeline misses or
invents shows up as a difference. Contexts are keyed by id (None for events without a context);
`classes` (from `evtrace stats --json`) says which ids are ISR or init contexts."""

NOCTX = 'no context'  # key of the events without a context (the timeline's "no context" entry)
LINUX_STATE = {'running': 0, 'ready': 0, 'blocked': 1, 'suspended': 4, 'terminated': 16, 'unknown': 0}


STOP_STATE = {'ready': 'ready', 'waiting': 'blocked', 'suspended': 'suspended', 'wait_suspended': 'suspended',
              'dormant': 'terminated', 'deleted': 'terminated'}


def stop_state(m):
    """The timeline state a thread_stop's meaning block names (None: no state change)."""
    if m.get('keep_state'):
        return None
    return STOP_STATE.get(m.get('stop_state'), 'blocked')


def event_time(e):
    return e['t_ns'] if 't_ns' in e else e['ts']


class Sched:
    """Feed events in order with add(); switches, wakings and wake flows (a wake-up to the woken
    context's next run) collect in .switches / .wakings / .flows; switches and wakings as
    (t, cpu, prev, next, prev_state) and (t, cpu, target, waker) with context keys (None = idle,
    NOCTX = the events without a context)."""

    def __init__(self, classes, sched=True):
        self.classes = classes
        self.sched = sched  # the trace records scheduling (info "capabilities"); else until its first switch record
        self.run, self.pend_isr, self.isr_n, self.prev_t = {}, {}, {}, {}
        self.on = {}      # context -> CPU it runs on
        self.state = {}   # context -> state name
        self.switches, self.wakings = [], []
        self.wake = {}    # context -> (time, waker) of a wake-up not yet followed by its run
        self.flows = []   # wake flows: (t0, t1, waker, woken)
        self.timed = False  # a record with a time of its own was seen

    def switch(self, cpu, t, nxt, ps):
        prev = self.run.get(cpu)
        if prev == nxt:
            return
        if nxt is not None and nxt in self.on and self.on[nxt] != cpu:
            oc = self.on[nxt]
            self.switch(oc, max(t, self.prev_t.get(oc, t)), None, 'ready')
        if prev is not None:
            self.on.pop(prev, None)
            self.state[prev] = ps
        if nxt is not None:
            self.on[nxt] = cpu
            self.state[nxt] = 'running'
        self.run[cpu] = nxt
        self.switches.append((t, cpu, prev, nxt, ps))
        if nxt is not None and nxt in self.wake:
            t0, waker = self.wake.pop(nxt)
            self.flows.append((t0, t, waker, nxt))

    def add(self, e):
        cpu = e.get('cpu', 0)
        t = event_time(e)
        if cpu in self.prev_t and t < self.prev_t[cpu]:
            t = self.prev_t[cpu]
        f = e.get('fields', {})
        m = e.get('meaning', {})
        if isinstance(m, list):  # dump read as key/value pairs
            m = dict(m)
        if m.get('untimed') and not self.timed:
            return  # configuration before the first timed record (RKH's TCFG): no time, no context
        self.timed = True
        if not self.sched and e['kind'] in ('thread_run', 'thread_stop'):
            self.sched = True
        if e['kind'] == 'lost':
            for c in list(set(self.run) | set(self.isr_n)):
                tc = max(t, self.prev_t.get(c, t))
                self.isr_n[c] = 0
                self.pend_isr.pop(c, None)
                if self.run.get(c) is not None:
                    self.switch(c, tc, None, 'unknown')
            self.wake.clear()
            self.prev_t[cpu] = t
            return
        key = e.get('ctx')
        if key is None:
            key = NOCTX
        cls = self.classes.get(key, 'thread')
        in_isr = cls == 'isr'
        kind = e['kind']
        target = f.get('target') if 'target' in f else None
        subject = key if target is None or target == key else target
        runs_now = bool(m.get('runs_now'))
        if self.sched and not in_isr and self.run.get(cpu) != key:
            self.pend_isr.pop(cpu, None)
            self.switch(cpu, t, key, 'ready')
        nxt_given = isinstance(m.get('next'), int)
        nxt = (m['next'] or None) if nxt_given else None
        if kind == 'thread_run':
            if not in_isr and (subject == key or runs_now):
                self.switch(cpu, t, subject, 'ready')
            else:
                if self.state.get(subject) not in ('running', 'ready'):
                    self.state[subject] = 'ready'
                    self.wakings.append((t, cpu, subject, key))
                    self.wake[subject] = (t, key)
                if cls != 'init' and nxt_given:
                    self.next_runs(cpu, t, nxt, in_isr)
        elif kind == 'thread_stop':
            st = stop_state(m)
            if st is None:
                pass
            elif subject in self.on:
                tcpu = self.on[subject]
                if in_isr and tcpu == cpu:
                    self.pend_isr[cpu] = (nxt if nxt_given else None, st)
                else:  # no successor named: idle from the stop
                    self.switch(tcpu, t, nxt if nxt_given else None, st)
            else:
                self.state[subject] = st
                if st != 'ready':
                    self.wake.pop(subject, None)
        elif kind == 'isr_enter':
            intr = m.get('interrupted')
            if not self.isr_n.get(cpu, 0) and self.sched and intr and intr != self.run.get(cpu):
                self.pend_isr.pop(cpu, None)
                self.switch(cpu, t, intr, 'ready')  # the thread the kernel says the ISR interrupted
            self.isr_n[cpu] = self.isr_n.get(cpu, 0) + 1
        elif kind == 'isr_exit' and self.isr_n.get(cpu, 0):
            self.isr_n[cpu] -= 1
            if self.isr_n[cpu] == 0 and cpu in self.pend_isr:
                n, st = self.pend_isr.pop(cpu)
                self.switch(cpu, t, n, st)
        if kind not in ('thread_run', 'thread_stop') and nxt_given and self.sched and cls != 'init':
            self.next_runs(cpu, t, nxt, in_isr)  # ThreadX's relinquish and time slice
        self.prev_t[cpu] = t

    def next_runs(self, cpu, t, nxt, in_isr):
        """The successor an event names runs next (the running context to ready); from an ISR at
        its exit, a stop recorded before in it keeping its state; naming the running context
        changes nothing (and cancels the ISR's earlier choice); idle named: nothing."""
        if nxt is None:
            return
        if nxt == self.run.get(cpu):
            if in_isr:
                self.pend_isr.pop(cpu, None)
            return
        if not in_isr:
            self.switch(cpu, t, nxt, 'ready')
            return
        st = self.pend_isr[cpu][1] if cpu in self.pend_isr else 'ready'
        self.pend_isr[cpu] = (nxt, st)

def names_of(evs):
    """Display name per context key, as the exporters label contexts."""
    names = {}
    for e in evs:
        f = e.get('fields', {})
        if isinstance(f.get('target'), int) and isinstance(f.get('target_name'), str) and f['target'] not in names:
            names[f['target']] = f['target_name']
        if e.get('ctx') is not None and e.get('ctx_name'):
            names[e['ctx']] = e['ctx_name']
    return names


def caps_of(evtrace, path):
    """The trace's capabilities as `evtrace info --json` reports them."""
    import json
    import subprocess
    r = subprocess.run([evtrace, 'info', '--json', path], capture_output=True, check=False)
    return json.loads(r.stdout.decode('utf-8'))['capabilities']


def model(evs, classes, caps=None):
    """caps: the trace's `info --json` capabilities (None: assume scheduling)."""
    # An RKH stream declares scheduling only once its hooks' records appear (the reader's caps at
    # the start have none): the timeline starts without it and its first scheduling record turns
    # it on (timeline.h); `info` reports the caps at the end.
    rkh = bool(evs) and evs[0].get('fmt') == 'rkh'
    s = Sched(classes, (caps is None or 'scheduling' in caps) and not rkh)
    for e in evs:
        s.add(e)
    return s

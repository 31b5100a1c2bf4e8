"""The HTML report in a real browser (Debian's chromium, headless, driven over the DevTools
protocol by cdp.py): for every readable sample (and the synthetic ones) `evtrace report` writes a
page that loads from file:// with no console message, no exception, no failed and no non-local
request. On one sample of each format (ThreadX demo and real, RKH, ETW, XRay, synthetic) it also:
- checks every state interval at least 4 px wide is drawn in its state's colour;
- zooms with the mouse wheel and with W/S, pans with D, and checks the visible range changed the
  right way;
- clicks the widest running interval and checks the details panel shows its context, state and
  duration (the duration parsed back equals the interval's);
- filters the event list by context, by context + name and by kind and checks each row count
  against `evtrace dump --json`; zoomed in, checks the list holds exactly the events of the
  visible range; clicks a row and checks the timeline is centred on that event;
- takes screenshots into ARTIFACTS (build/<dir>/artifacts/report/*.png).
A 1M-event synthetic report must load within LOAD_LIMIT_S and redraw a zoom within ZOOM_LIMIT_S.
A missing chromium is a failure, never a skip.
- renders the report `make run` writes (DEMO: the ThreadX demo program; its trace in real time).
usage: report_browser.py EVTRACE SAMPLES_DIR HOST_DATA_DIR ARTIFACTS [DEMO]"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'host'))
import cdp  # noqa: E402
from export_common import dump, readable_samples  # noqa: E402

LOAD_LIMIT_S = 20.0   # 1M-event page: navigation to first full draw
ZOOM_LIMIT_S = 1.0    # 1M-event page: one wheel zoom to the redrawn frame (median of 3)
INTERACTIVE = ['threadx_tracex/demo_threadx.trx', 'threadx_real/nowrap_m32le.trx',
               'threadx_tracex/demo_netx_tcp.trx', 'rkh/blinky_stock.bin',
               'etw/etl-parser_lxcore_kernel.etl', 'xray/fdr-v5-small.xray']

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print('FAIL: ' + msg)
    return cond


def report(evtrace, path, out, extra=()):
    r = subprocess.run([evtrace, 'report', '-q', '--force'] + list(extra) + [path, '-o', out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode not in (0, 1) or not os.path.exists(out):
        raise cdp.CdpError('report failed on %s: %s' % (path, r.stderr.decode()))
    html = open(out, encoding='utf-8', errors='replace').read()
    check(not re.search(r'https?://', html), '%s: the page names a network URL' % out)
    check('evtrace-report-ok' not in html and 'selfcheck' not in html, '%s: a test hook is in the page' % out)
    return html


def load(b, path, timeout=60):
    b.events = []
    t = time.monotonic()
    b.navigate('file://' + path)
    while b.eval('document.body.dataset.ready') != '1':
        if time.monotonic() - t > timeout:
            raise cdp.CdpError('%s: page not ready after %ds' % (path, timeout))
        time.sleep(0.05)
    b.frames(2)
    return time.monotonic() - t


def view(b):
    v = b.eval("(function(){var r=document.getElementById('range');return [+r.dataset.t0,+r.dataset.t1];})()")
    return v[0], v[1]


def rect(b, sel):
    return b.eval("(function(){var e=document.querySelector(%s);if(!e)return null;var r=e.getBoundingClientRect();"
                  "return {x:r.left,y:r.top,w:r.width,h:r.height};})()" % json.dumps(sel))


def list_count(b):
    return int(b.eval("document.getElementById('list-count').dataset.count"))


def set_filter(b, ctx='', kind='', name=''):
    b.eval("(function(){var c=document.getElementById('f-ctx'),k=document.getElementById('f-kind'),"
           "n=document.getElementById('f-name');c.value=%s;k.value=%s;n.value=%s;"
           "c.dispatchEvent(new Event('change'));n.dispatchEvent(new Event('input'));})()"
           % (json.dumps(str(ctx)), json.dumps(str(kind)), json.dumps(name)))
    b.frames(1)


def settle(b):
    """Wait for the debounced list/load refresh after a view change."""
    time.sleep(0.25)
    b.frames(2)


def parse_dur(text, unit):
    m = re.match(r'([-0-9.,]+) (ticks|ns|\u00b5s|ms|s)$', text.strip())
    if not m:
        return None
    v = float(m.group(1).replace(',', ''))
    return v * {'ticks': 1, 'ns': 1, '\u00b5s': 1e3, 'ms': 1e6, 's': 1e9}[m.group(2)]


# The widest interval on screen of state STATE for which KEEP holds (after SETUP), with its
# screen point, width, context and duration, and MORE: a JS expression the caller adds.
WIDEST = r"""(function(){
 var raw=JSON.parse(document.getElementById('evt-data').textContent),m=raw.meta,st=raw.states;
 var r=document.getElementById('range'),t0=+r.dataset.t0,t1=+r.dataset.t1;
 var cv=document.getElementById('tl').getBoundingClientRect(),box=document.getElementById('lanes').getBoundingClientRect();
 SETUP
 var best=null;
 for(var i=0;i<st.length;i+=8){
  if(m.state_names[st[i+1]]!=='STATE'||!(KEEP))continue;
  var lab=document.querySelector('.lane-label[data-ctx="'+st[i]+'"]');
  if(!lab)continue;
  var lr=lab.getBoundingClientRect();
  if(lr.top<box.top||lr.top+14>box.bottom)continue;
  var a=st[i+3]+m.shift,b=a+st[i+4];
  var xa=Math.max(cv.left,cv.left+(a-t0)/(t1-t0)*cv.width),xb=Math.min(cv.right,cv.left+(b-t0)/(t1-t0)*cv.width);
  if(xb<=xa)continue;
  if(!best||xb-xa>best.w)best={x:(xa+xb)/2,y:lr.top+10,w:xb-xa,ctx:m.ctx[st[i]].name,dur:st[i+4],more:MORE};
 }
 return best;})()"""


def widest(state, keep='true', setup='', more='null'):
    return WIDEST.replace('STATE', state).replace('KEEP', keep).replace('SETUP', setup).replace('MORE', more)


WIDEST_RUNNING = widest('running')
# the widest ready interval that a wake-up with a cause begins (the "wakes" row at its start);
# more: [waker name or null, cause name]
WIDEST_WOKEN = widest('ready', keep="why[st[i]+':'+st[i+3]]", more="why[st[i]+':'+st[i+3]]", setup=(
    "var W=raw.wakes,why={};for(var k=0;k<W.length;k+=6)if(W[k+5]>0)"
    "why[W[k]+':'+W[k+2]]=[W[k+1]>=0?m.ctx[W[k+1]].name:null,m.wake_causes[W[k+5]]];"))


def zoom_to(b, js, tries):
    """Zoom in (the wheel zooms at the pointer) on the interval js finds until it is 8 px wide:
    that interval, or None."""
    best = b.eval(js)
    for _ in range(tries):
        if best is None or best['w'] >= 8:
            break
        b.mouse('mouseWheel', best['x'], best['y'], deltaX=0, deltaY=-400)
        b.frames(2)
        best = b.eval(js)
    return best if best is not None and best['w'] >= 8 else None


def details(b):
    """The details panel's rows, as a dict."""
    rows = b.eval("Array.prototype.map.call(document.querySelectorAll('#details tr'),function(t){"
                  "return [t.cells[0].textContent,t.cells[1].textContent];})")
    return dict(rows or [])


STATE_PIXELS = r"""(function(){
 var raw=JSON.parse(document.getElementById('evt-data').textContent),m=raw.meta,st=raw.states,L=raw.lost;
 var col={};
 document.querySelectorAll('#legend span').forEach(function(sp){var i=sp.querySelector('i');
  col[sp.textContent.trim()]=getComputedStyle(i).backgroundColor.match(/\d+/g).map(Number);});
 var r=document.getElementById('range'),t0=+r.dataset.t0,t1=+r.dataset.t1;
 var cv=document.getElementById('tl'),cr=cv.getBoundingClientRect(),box=document.getElementById('lanes').getBoundingClientRect();
 var g=cv.getContext('2d'),k=cv.width/cr.width,n=0,bad=[],img=g.getImageData(0,0,cv.width,cv.height).data;
 var an=JSON.parse(document.getElementById('evt-analyses').textContent),inv=an&&an.inversions?an.inversions.list:[];
 for(var i=0;i<st.length&&n<400;i+=8){
  var lab=document.querySelector('.lane-label[data-ctx="'+st[i]+'"]');
  if(!lab)continue;
  var lr=lab.getBoundingClientRect();
  if(lr.top<box.top||lr.top+20>box.bottom)continue;
  var a=st[i+3]+m.shift,b=a+st[i+4],xa=(a-t0)/(t1-t0)*cr.width,xb=(b-t0)/(t1-t0)*cr.width;
  if(xb-xa<4||xa<0||xb>cr.width)continue;
  var lost=false;
  for(var q=0;q<L.length;q+=4)if(L[q+2]+m.shift>=a&&L[q+1]+m.shift<=b)lost=true;
  for(q=0;q<inv.length;q++)if(inv[q].high&&inv[q].high.name===m.ctx[st[i]].name&&inv[q].start-m.origin<=b&&inv[q].start-m.origin+inv[q].duration>=a)lost=true;
  if(lost)continue;
  var x=Math.floor((xa+xb)/2),y=Math.floor(lr.top-cr.top+12);
  var o=(Math.floor(y*k)*cv.width+Math.floor(x*k))*4,p=[img[o],img[o+1],img[o+2]],want=col[m.state_names[st[i+1]]];
  n++;
  if(Math.abs(p[0]-want[0])>3||Math.abs(p[1]-want[1])>3||Math.abs(p[2]-want[2])>3)
   bad.push([m.ctx[st[i]].name,m.state_names[st[i+1]],a,b,[p[0],p[1],p[2]]]);
 }
 return {checked:n,bad:bad};})()"""


LEGEND_STATES = r"""(function(){
 var raw=JSON.parse(document.getElementById('evt-data').textContent),m=raw.meta,st=raw.states,has={},leg=[];
 for(var i=1;i<st.length;i+=8)has[m.state_names[st[i]]]=1;
 document.querySelectorAll('#legend span').forEach(function(sp){var t=sp.textContent.trim();if(m.state_names.indexOf(t)>=0)leg.push(t);});
 return {legend:leg.sort(),data:Object.keys(has).sort()};})()"""


def legend_checks(b, name):
    """The legend lists exactly the states the trace has (no "active" beside scheduling, no
    "running" for a trace that records none)."""
    r = b.eval(LEGEND_STATES)
    check(r['legend'] == r['data'], '%s: legend states %r, the data has %r' % (name, r['legend'], r['data']))


def drawing_checks(b, name):
    """Every state interval at least 4 px wide (not under a lost band or an inversion) is drawn in its state's
    colour (the legend's) at its centre: the canvas shows what the data says."""
    b.eval("(function(){var f=document.getElementById('show-flows');f.checked=false;f.dispatchEvent(new Event('change'));})()")
    b.frames(2)
    r = b.eval(STATE_PIXELS)
    check(not r['bad'], '%s: %d of %d state intervals drawn in another colour, e.g. %r' %
          (name, len(r['bad']), r['checked'], r['bad'][:3]))
    b.eval("(function(){var f=document.getElementById('show-flows');f.checked=true;f.dispatchEvent(new Event('change'));})()")
    b.frames(2)
    print('%s: %d state intervals drawn in their colours' % (name, r['checked']))


def click_interval(b, name, unit):
    if b.eval(WIDEST_RUNNING) is None:
        print('%s: no running interval in this trace (nothing to click)' % name)
        return
    best = zoom_to(b, WIDEST_RUNNING, 40)
    if not check(best is not None, '%s: could not zoom to a running interval' % name):
        return
    b.click(best['x'], best['y'])
    b.frames(2)
    kind = b.eval("document.getElementById('details').dataset.kind")
    title = b.eval("(document.querySelector('#details h3')||{}).textContent")
    d = details(b)
    check(kind == 'state' and title == 'State: running', '%s: details after the click: %r %r' % (name, kind, title))
    check(d.get('context') == best['ctx'], '%s: details context %r, clicked %r' % (name, d.get('context'), best['ctx']))
    got = parse_dur(d.get('duration', ''), unit)
    check(got is not None and abs(got - best['dur']) <= max(1.0, best['dur'] * 1e-3),
          '%s: details duration %r, the interval is %r %s' % (name, d.get('duration'), best['dur'], unit))
    print('%s: clicked running interval of %s: details %s' % (name, best['ctx'], d.get('duration')))


def click_woken(b, name):
    """The details of a ready interval that a wake-up with a cause begins: who woke it and why its
    wait ended (a ThreadX timeout is woken by the timer thread: only the cause tells it apart)."""
    if b.eval(WIDEST_WOKEN) is None:
        return 0
    best = zoom_to(b, WIDEST_WOKEN, 60)
    if not check(best is not None, '%s: could not zoom to a ready interval with a wake cause' % name):
        return 0
    b.click(best['x'], best['y'])
    b.frames(2)
    d = details(b)
    best['waker'], best['cause'] = best['more']
    check(d.get('state') == 'ready' and d.get('context') == best['ctx'],
          '%s: details of the woken interval of %s: %r' % (name, best['ctx'], d))
    check(d.get('wait ended') == best['cause'], '%s: details "wait ended" %r, the wake-up says %r: %r'
          % (name, d.get('wait ended'), best['cause'], d))
    if best['waker']:
        check(d.get('woken by') == best['waker'], '%s: details "woken by" %r, the wake-up says %r'
              % (name, d.get('woken by'), best['waker']))
    print('%s: clicked a ready interval of %s: woken by %s, wait ended %s' % (name, best['ctx'], d.get('woken by'),
                                                                             d.get('wait ended')))
    b.key('f')  # back to the whole trace
    b.frames(2)
    return 1


def zoom_checks(b, name):
    cv = rect(b, '#tl')
    x, y = cv['x'] + cv['w'] / 2, cv['y'] + min(cv['h'], 200) / 2
    a0, a1 = view(b)
    b.mouse('mouseWheel', x, y, deltaX=0, deltaY=-300)
    b.frames(2)
    z0, z1 = view(b)
    check(z1 - z0 < (a1 - a0) * 0.9, '%s: wheel zoom did not narrow the range (%r -> %r)' % (name, (a0, a1), (z0, z1)))
    b.mouse('mouseMoved', 5, 5)  # keys zoom around the centre when the mouse is off the timeline
    b.key('w')
    b.frames(2)
    w0, w1 = view(b)
    check(w1 - w0 < (z1 - z0) * 0.95, '%s: W did not zoom in (%r -> %r)' % (name, (z0, z1), (w0, w1)))
    b.key('d')
    b.frames(2)
    d0, d1 = view(b)
    check(d0 > w0 and abs((d1 - d0) - (w1 - w0)) < 1e-6 * (w1 - w0) + 1e-9,
          '%s: D did not pan right (%r -> %r)' % (name, (w0, w1), (d0, d1)))
    b.key('s')
    b.frames(2)
    s0, s1 = view(b)
    check(s1 - s0 > (d1 - d0) * 1.05, '%s: S did not zoom out' % name)
    print('%s: zoom wheel %.4g -> %.4g, W -> %.4g, D pans +%.4g, S -> %.4g' %
          (name, a1 - a0, z1 - z0, w1 - w0, d0 - w0, s1 - s0))


def filter_checks(b, name, evs, meta):
    b.key('f')
    settle(b)
    set_filter(b)
    check(list_count(b) == min(len(evs), meta['list_limit']),
          '%s: unfiltered list %d rows, dump %d events' % (name, list_count(b), len(evs)))
    opts = b.eval("Array.prototype.map.call(document.getElementById('f-ctx').options,function(o){return o.value;})")
    by_id = {}
    for e in evs:
        by_id.setdefault(e.get('ctx'), []).append(e)
    best = None
    for v in opts:
        if v == '':
            continue
        cid = meta['ctx'][int(v)]['id']
        if cid is None:
            continue
        n = len(by_id.get(int(cid, 16), []))
        if best is None or n > best[1]:
            best = (v, n, int(cid, 16))
    if check(best is not None, '%s: no context with an id to filter by' % name):
        v, n, cid = best
        set_filter(b, ctx=v)
        check(list_count(b) == n, '%s: context %s: list %d rows, dump %d' % (name, v, list_count(b), n))
        names = {}
        for e in by_id[cid]:
            names[e['name']] = names.get(e['name'], 0) + 1
        top = max(names, key=lambda k: names[k])
        q = top.lower()[: max(3, len(top) - 2)]
        want = sum(1 for e in by_id[cid] if q in e['name'].lower())
        set_filter(b, ctx=v, name=q)
        check(list_count(b) == want, '%s: context %s + name %r: list %d rows, dump %d' % (name, v, q, list_count(b), want))
        print('%s: filter context %s: %d rows; + name %r: %d rows (= dump)' % (name, meta['ctx'][int(v)]['name'], n, q, want))
    kinds = {}
    for e in evs:
        kinds[e['kind']] = kinds.get(e['kind'], 0) + 1
    k = max(kinds, key=lambda x: kinds[x])
    set_filter(b, kind=meta['kinds'].index(k))
    check(list_count(b) == kinds[k], '%s: kind %s: list %d rows, dump %d' % (name, k, list_count(b), kinds[k]))
    set_filter(b)
    # zoomed in: the list holds the events of the visible range, as dump's times say
    for _ in range(6):
        b.key('w')
    settle(b)
    t0, t1 = view(b)
    unit_ns = meta['unit'] == 'ns'
    rel = [(e['t_ns'] if unit_ns else e['ts']) - meta['origin'] for e in evs]
    want = sum(1 for t in rel if t0 <= t <= t1)
    check(list_count(b) == want, '%s: zoomed list %d rows, dump has %d events in [%r, %r]' % (name, list_count(b), want, t0, t1))
    # a row click centres the timeline on its event
    row = rect(b, '#ev-rows .ev-row:nth-child(3)') or rect(b, '#ev-rows .ev-row')
    if want and check(row is not None, '%s: no list row to click' % name):
        i = int(b.eval("(document.querySelector('#ev-rows .ev-row:nth-child(3)')||"
                       "document.querySelector('#ev-rows .ev-row')).dataset.ev"))
        b.click(row['x'] + 30, row['y'] + row['h'] / 2)
        b.frames(3)
        c0, c1 = view(b)
        t = rel[i]
        check(abs((c0 + c1) / 2 - t) <= (c1 - c0) * 0.01 or c0 <= -0.009 * meta['duration'] or
              c1 >= 1.009 * meta['duration'], '%s: row %d (t=%r) not centred: view %r' % (name, i, t, (c0, c1)))
        check(b.eval("document.getElementById('details').dataset.kind") == 'event', '%s: row click shows no event' % name)
        keys = b.eval("Array.prototype.map.call(document.querySelectorAll('#details th'),function(t){return t.textContent;})")
        e = evs[i]
        # the target's name is shown inside "target" (name and id together)
        want_keys = {'time', 'context', 'kind', 'name', 'byte offset', 'id'} | (set(e.get('fields', {})) - {'target_name'})
        check(want_keys <= set(keys), '%s: event details %r lack %r' % (name, keys, sorted(want_keys - set(keys))))


def analyses_checks(b, evtrace, path, name):
    """The page's analyses are `stats --json`'s, and its tables show every row of them."""
    r = subprocess.run([evtrace, 'stats', '--json', path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    want = json.loads(r.stdout.decode())['analyses']
    got = b.eval("JSON.parse(document.getElementById('evt-analyses').textContent)")
    # JavaScript numbers are doubles: compare with every number as a double (ids above 2^53)
    as_double = lambda x: json.loads(json.dumps(x), parse_int=float)
    check(as_double(got) == as_double(want), '%s: the page\'s analyses differ from stats --json\'s' % name)
    if not got:
        return
    rows = lambda sel: b.eval("document.querySelectorAll(%s).length" % json.dumps(sel))
    inv = got['inversions']['list']
    if inv:
        check(rows('#an-inversions tbody tr') == len(inv), '%s: %d inversion rows, %d inversions' %
              (name, rows('#an-inversions tbody tr'), len(inv)))
        first = b.eval("Array.prototype.map.call(document.querySelector('#an-inversions tbody tr').cells,"
                       "function(c){return c.textContent;})")
        check(first[3].startswith(inv[0]['high']['name']) and first[4].startswith(inv[0]['low']['name']),
              '%s: inversion row %r, analyses %r' % (name, first, inv[0]))
        # a row click zooms the timeline there; the mark on the blocked context's lane shows it
        row = rect(b, '#an-inversions tbody tr')
        b.click(row['x'] + 20, row['y'] + row['h'] / 2)
        time.sleep(0.3)
        b.frames(3)
        t0, t1 = view(b)
        meta = b.eval("JSON.parse(document.getElementById('evt-data').textContent).meta")
        s0 = inv[0]['start'] - meta['origin']
        check(t0 <= s0 <= t1 and t1 - t0 < meta['duration'], '%s: inversion row click: view %r, start %r' % (name, (t0, t1), s0))
        lab = b.eval("(function(){var ls=document.querySelectorAll('.lane-label[data-ctx]');for(var i=0;i<ls.length;i++)"
                     "if(ls[i].firstChild.textContent===%s){var q=ls[i].getBoundingClientRect();return q.top;}return null;})()"
                     % json.dumps(inv[0]['high']['name']))
        cv = rect(b, '#tl')
        if check(lab is not None, '%s: no lane for %r' % (name, inv[0]['high']['name'])):
            x = cv['x'] + (s0 + inv[0]['duration'] / 2 - t0) / (t1 - t0) * cv['w']
            b.click(x, lab + 12)
            b.frames(2)
            det = dict(b.eval("Array.prototype.map.call(document.querySelectorAll('#details tr'),function(t){"
                              "return [t.cells[0].textContent,t.cells[1].textContent];})") or [])
            check(det.get('blocked (high)', '').startswith(inv[0]['high']['name']) and
                  det.get('holder (low)', '').startswith(inv[0]['low']['name']),
                  '%s: inversion mark details %r' % (name, det))
    resp = got['response']
    n = len(resp.get('tasks', [])) + len(resp.get('isrs', []))
    check(rows('#an-response tbody tr') == n, '%s: %d response rows, analyses have %d' % (name, rows('#an-response tbody tr'), n))
    links = rows('#an-response a.jumplink')
    check(links == sum(len(x.get('worst', [])) for x in resp.get('tasks', []) + resp.get('isrs', [])),
          '%s: %d worst-instance links' % (name, links))
    print('%s: analyses = stats --json (%d inversion(s), %d response rows, %d worst-instance links)' % (name, len(inv), n, links))


def interactive(b, evtrace, path, tmp, art):
    name = os.path.basename(path).split('.')[0]
    out = os.path.join(tmp, name + '.html')
    report(evtrace, path, out)
    load(b, out)
    check(not b.problems(), '%s: %r' % (name, b.problems()[:5]))
    meta = b.eval("JSON.parse(document.getElementById('evt-data').textContent).meta")
    b.screenshot(os.path.join(art, name + '-overview.png'))
    drawing_checks(b, name)
    legend_checks(b, name)
    zoom_checks(b, name)
    b.key('f')
    b.frames(2)
    click_interval(b, name, meta['unit'])
    b.screenshot(os.path.join(art, name + '-details.png'))
    filter_checks(b, name, dump(evtrace, path), meta)
    analyses_checks(b, evtrace, path, name)
    b.eval("window.scrollTo(0,0)")
    b.key('f')
    b.frames(2)
    woken = click_woken(b, name)
    b.eval("document.getElementById('load-panel').scrollIntoView()")
    b.frames(2)
    b.screenshot(os.path.join(art, name + '-load.png'))
    check(not b.problems(), '%s after interaction: %r' % (name, b.problems()[:5]))
    return woken


def big(b, evtrace, tmp, art):
    spec = os.path.join(tmp, 'big.syn')
    with open(spec, 'w') as f:
        f.write('evtrace-synthetic 1\nevents 1000000\nthreads 8\nhz 1000000\nlost_every 100000\n')
    out = os.path.join(tmp, 'big.html')
    t = time.monotonic()
    report(evtrace, spec, out)
    gen = time.monotonic() - t
    lt = load(b, out, timeout=120)
    check(not b.problems(), 'synthetic 1M: %r' % b.problems()[:5])
    cv = rect(b, '#tl')
    a0, a1 = view(b)
    times = []
    for _ in range(3):  # the median of three zooms (the machine is shared)
        t = time.monotonic()
        b.mouse('mouseWheel', cv['x'] + cv['w'] / 2, cv['y'] + 50, deltaX=0, deltaY=-150)
        b.frames(2)
        times.append(time.monotonic() - t)
    zt = sorted(times)[1]
    z0, z1 = view(b)
    check(z1 - z0 < a1 - a0, 'synthetic 1M: the zoom did not change the range')
    settle(b)
    b.screenshot(os.path.join(art, 'synthetic-1M.png'))
    notes = b.eval("document.getElementById('notes').textContent")
    check('first 500,000 of 1,000,000' in notes, 'synthetic 1M: the page does not state the list limit: %r' % notes)
    print('synthetic 1M events: report %.1f s, %.1f MB; page load %.2f s (limit %.0f s); wheel zoom redrawn in %.3f s '
          '(median of %s; limit %.1f s)' % (gen, os.path.getsize(out) / 1e6, lt, LOAD_LIMIT_S, zt,
                                           ', '.join('%.3f' % x for x in times), ZOOM_LIMIT_S))
    check(lt < LOAD_LIMIT_S, 'synthetic 1M: load took %.1f s' % lt)
    check(zt < ZOOM_LIMIT_S, 'synthetic 1M: zoom took %.2f s' % zt)


def make_run_demo(b, evtrace, demo, tmp, art):
    """The report `make run` ends with: the ThreadX demo's own trace, in real time (its timer counts
    microseconds, as the Makefile says with --clock-hz 1000000)."""
    trx = os.path.join(tmp, 'demo.trx')
    r = subprocess.run([demo, trx], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not check(r.returncode == 0 and os.path.exists(trx), 'the ThreadX demo failed: %s' % r.stderr.decode()[:500]):
        return
    out = os.path.join(tmp, 'demo-report.html')
    report(evtrace, trx, out, ['--clock-hz', '1000000'])
    load(b, out)
    check(not b.problems(), 'make run demo: %r' % b.problems()[:5])
    meta = b.eval("JSON.parse(document.getElementById('evt-data').textContent).meta")
    check(meta['unit'] == 'ns', 'make run demo: the report is not in real time: %r' % meta['unit'])
    b.screenshot(os.path.join(art, 'make-run-demo-overview.png'))
    drawing_checks(b, 'make-run-demo')
    b.eval("document.getElementById('load-panel').scrollIntoView()")
    b.frames(2)
    b.screenshot(os.path.join(art, 'make-run-demo-load.png'))
    check(not b.problems(), 'make run demo after interaction: %r' % b.problems()[:5])


def main():
    evtrace, samples, data, art = sys.argv[1:5]
    demo = sys.argv[5] if len(sys.argv) > 5 else None
    if not cdp.find_chromium():
        print('FAIL: chromium missing (Debian package chromium; scripts/deps.sh check installs it)')
        sys.exit(1)
    os.makedirs(art, exist_ok=True)
    b = cdp.Browser()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            files = readable_samples(evtrace, samples) + [os.path.join(data, 'small.syn'), os.path.join(data, 'weird.syn')]
            for p in files:  # every sample: loads clean
                out = os.path.join(tmp, 'any.html')
                report(evtrace, p, out)
                lt = load(b, out)
                check(not b.problems(), '%s: %r' % (p, b.problems()[:5]))
                print('%s: loaded in %.2f s, no console message' % (os.path.relpath(p, samples) if p.startswith(samples) else p, lt))
            woken = 0
            for rel in INTERACTIVE:
                p = os.path.join(samples, rel)
                if check(os.path.exists(p), 'sample %s missing' % p):
                    woken += interactive(b, evtrace, p, tmp, art)
            check(woken >= 2, 'a wake cause was shown on %d samples, want both ThreadX ones' % woken)
            interactive(b, evtrace, os.path.join(data, 'small.syn'), tmp, art)
            if demo:
                make_run_demo(b, evtrace, demo, tmp, art)
            big(b, evtrace, tmp, art)
    finally:
        b.close()
    print('screenshots in %s' % art)
    if failures:
        print('%d failure(s)' % len(failures))
        sys.exit(1)
    print('report_browser: ok')


if __name__ == '__main__':
    main()

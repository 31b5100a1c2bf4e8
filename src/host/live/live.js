/* evtrace live: the report page's data feed (added by `evtrace live` as the body's first script;
 * never part of an offline report). The server announces each new page over server-sent events
 * (/events); this script fetches it (/page) and swaps it in: the page's own script runs again on
 * the new data in a fresh body, with the old one's window/document listeners removed (they are
 * tracked from here, which runs first). The report hands this script its view through
 * window.evtLiveHook (js/95_live.js), so the visible range survives a swap: in follow mode the
 * newest time stays in view at the current zoom; paused, no new page is applied (data keeps
 * arriving and is written to the file), and zoom and pan work on the page shown. */
(function () {
  'use strict';
  if (window.evtLive) return;
  var me = document.currentScript;
  var L = window.evtLive = { gen: +(me && me.dataset.gen || 0), follow: true, paused: false, waiting: 0, busy: false,
    hook: null, saved: null, newest: null, swaps: 0, swapMs: 0, ended: false, status: 'connecting', pending: 0 };
  var regs = [];
  var wAdd = window.addEventListener, dAdd = document.addEventListener;
  window.addEventListener = function (t, f, o) { regs.push([window, t, f, o]); return wAdd.call(window, t, f, o); };
  document.addEventListener = function (t, f, o) { regs.push([document, t, f, o]); return dAdd.call(document, t, f, o); };

  function fitOrFollow(h, span) {
    if (!span || span >= h.dur * 0.99) h.setView(-h.dur * 0.005, h.dur * 1.005);
    else h.setView(h.dur - span * 0.97, h.dur + span * 0.03);
  }
  /* called by the report's script (js/95_live.js) once it has drawn its data */
  window.evtLiveHook = function (h) {
    L.hook = h;
    L.newest = h.origin + h.dur;
    L.ns = h.ns;
    var sv = L.saved;
    L.saved = null;
    if (sv) {
      var span = sv.t1 - sv.t0;
      if (L.follow) fitOrFollow(h, sv.full ? 0 : span);
      else { var d = sv.origin - h.origin; h.setView(sv.t0 + d, sv.t1 + d); }
      h.lanesBox.scrollTop = sv.lanesTop;
      window.scrollTo(0, sv.y);
    }
    bar();
  };

  function apply(html) {
    var t0 = performance.now(), h = L.hook;
    if (h) {
      var v = h.getView();
      L.saved = { t0: v.t0, t1: v.t1, origin: h.origin, full: (v.t1 - v.t0) >= h.dur * 0.99,
        lanesTop: h.lanesBox.scrollTop, y: window.scrollY };
    }
    var doc = new DOMParser().parseFromString(html, 'text/html'), main = null, body = document.body;
    regs.forEach(function (r) { r[0].removeEventListener(r[1], r[2], r[3]); });
    regs = [];
    L.hook = null;
    while (body.firstChild) body.removeChild(body.firstChild);
    Array.prototype.forEach.call(doc.body.childNodes, function (n) {
      if (n.nodeName === 'SCRIPT' && n.id === 'evt-live') return;
      if (n.nodeName === 'SCRIPT' && !n.type) { main = n.textContent; return; }
      body.appendChild(document.importNode(n, true));
    });
    delete body.dataset.ready;
    document.title = doc.title;
    if (main) { var s = document.createElement('script'); s.textContent = main; body.appendChild(s); }
    L.swaps++;
    L.swapMs = performance.now() - t0;
    bar();
  }

  function fetchPage() {
    if (L.busy || L.paused) return;
    L.busy = true;
    var gen = 0;
    fetch('/page', { cache: 'no-store' }).then(function (r) {
      gen = +(r.headers.get('X-Evtrace-Gen') || 0);
      return r.text();
    }).then(function (t) {
      L.busy = false;
      if (gen > L.gen) { apply(t); L.gen = gen; }
      if (L.waiting > L.gen) fetchPage();
    }, function () { L.busy = false; L.status = 'fetch failed'; bar(); });
  }

  var es = new EventSource('/events');
  es.addEventListener('update', function (e) {
    var d = JSON.parse(e.data);
    L.status = 'live';
    L.ended = !!d.ended;
    L.bytes = d.bytes;
    if (d.gen > L.waiting) L.waiting = d.gen;
    if (L.paused) { L.pending = L.waiting - L.gen; bar(); return; }
    fetchPage();
  });
  es.onopen = function () { L.status = 'live'; bar(); };
  es.onerror = function () { L.status = 'server gone (session ended?)'; bar(); };

  function fmtBytes(n) { return n >= 1048576 ? (n / 1048576).toFixed(1) + ' MiB' : n >= 1024 ? (n / 1024).toFixed(1) + ' KiB' : n + ' B'; }
  /* the live bar: fixed at the top right, rebuilt after each swap (it lives in the body) */
  function bar() {
    var b = document.getElementById('evt-live-bar');
    if (!b) {
      b = document.createElement('div');
      b.id = 'evt-live-bar';
      b.style.cssText = 'position:fixed;bottom:8px;right:8px;z-index:1000;background:#111827;color:#f9fafb;' +
        'font:12px system-ui,sans-serif;padding:4px 10px;border-radius:6px;display:flex;gap:10px;align-items:center;opacity:.92';
      var dot = document.createElement('span'); dot.id = 'evt-live-dot'; dot.textContent = '\u25cf LIVE';
      var info = document.createElement('span'); info.id = 'evt-live-info';
      function box(id, label, on, fn) {
        var l = document.createElement('label'), c = document.createElement('input');
        c.type = 'checkbox'; c.id = id; c.checked = on;
        c.addEventListener('change', function () { fn(c.checked); });
        l.appendChild(c); l.appendChild(document.createTextNode(' ' + label)); return l;
      }
      b.appendChild(dot); b.appendChild(info);
      b.appendChild(box('evt-live-follow', 'follow', L.follow, function (on) {
        L.follow = on;
        if (on && L.hook) { var v = L.hook.getView(); fitOrFollow(L.hook, v.t1 - v.t0); }
      }));
      b.appendChild(box('evt-live-pause', 'pause', L.paused, function (on) {
        L.paused = on; L.pending = 0;
        if (!on && L.waiting > L.gen) fetchPage();
        bar();
      }));
      document.body.appendChild(b);
    }
    document.getElementById('evt-live-dot').style.color = L.paused ? '#fbbf24' : L.status === 'live' ? '#34d399' : '#f87171';
    document.getElementById('evt-live-follow').checked = L.follow;
    document.getElementById('evt-live-pause').checked = L.paused;
    document.getElementById('evt-live-info').textContent = (L.paused ? 'paused' + (L.pending ? ', ' + L.pending + ' newer page(s) waiting' : '') : L.status) +
      (L.ended ? ' \u00b7 source ended' : '') + (L.bytes !== undefined ? ' \u00b7 file ' + fmtBytes(L.bytes) : '') + ' \u00b7 page ' + L.gen;
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', bar);
  else bar();
})();

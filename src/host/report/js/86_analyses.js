/* The analyses (docs/analyses.md): CPU load per window, response times with worst instances and
 * a range plot, priority inversions (also marked on the timeline), object counter history and
 * waits, flows between contexts, stack usage. Times in the analyses are absolute (D.origin). */
function rel(t) { return t - D.origin; }
function jumpTo(t, dur) {
  var span = Math.max((dur || 0) * 6, MIN_SPAN * 20, (view.t1 - view.t0) / 50);
  setView(t + (dur || 0) / 2 - span / 2, t + (dur || 0) / 2 + span / 2);
  $('timeline-panel').scrollIntoView({ block: 'start' });
}
function link(text, t, dur) {
  var a = el('a', 'jumplink', text);
  a.href = '#timeline-panel';
  a.title = 'show on the timeline';
  a.addEventListener('click', function (e) { e.preventDefault(); jumpTo(t, dur); });
  return a;
}
function sub(box, text) { box.appendChild(el('h4', null, text)); }
function note(box, text) { box.appendChild(el('p', 'meta', text)); }
function chart(h) { var cv = el('canvas', 'plot'); cv.style.height = h + 'px'; return cv; }
function later(fn) { setTimeout(fn, 0); }
function ctxLabel(c) { return c ? c.name + (c.priority !== undefined && c.priority !== null ? ' (prio ' + c.priority + ')' : '') : ''; }

function anLoad(box, L) {
  box.appendChild(el('h3', null, 'CPU load per window'));
  if (!L || !Array.isArray(L.contexts)) { renderAnalysis(box, 'load', L, 1); return; }
  var n = L.windows || (L.idle ? L.idle.length : 0), w = L.window, cpus = L.cpus || 1;
  note(box, 'Windows of ' + fmtDur(w) + (L.window_requested && L.window_requested !== 'auto' ? ' (asked: ' + L.window_requested + ')' : ' (automatic)') +
    ', ' + fmtInt(n) + ' windows, ' + cpus + ' CPU(s); the last window is ' + fmtDur(L.last_window || w) + ' long. Stacked: each context\'s busy share of the window, ISRs, idle.');
  var ctxs = L.contexts.slice().sort(function (a, b) {
    var sa = 0, sb = 0; (a.busy || []).forEach(function (v) { sa += v; }); (b.busy || []).forEach(function (v) { sb += v; }); return sb - sa;
  });
  var cv = chart(220);
  box.appendChild(cv);
  var lg = el('div', 'legend');
  box.appendChild(lg);
  later(function () {
    var W = cv.clientWidth || 900, H = 220, g = fitCanvas(cv, W, H), m = { l: 56, r: 12, t: 10, b: 42 };
    var pw = W - m.l - m.r, ph = H - m.t - m.b, t0 = rel(L.origin), t1 = t0 + n * w;
    var acc = new Float64Array(n), series = [];
    var others = [];
    ctxs.forEach(function (c) {
      var col = ctxColor(ctxByName(c.name));
      if (col) series.push({ name: c.name, a: c.busy, c: col }); else others.push(c);
    });
    if (others.length) {
      var o = new Array(n).fill(0);
      others.forEach(function (c) { (c.busy || []).forEach(function (v, k) { o[k] += v; }); });
      series.push({ name: others.length + ' other context' + (others.length > 1 ? 's' : ''), a: o, c: '#5b6b7f' });
    }
    if (L.isr) series.push({ name: 'ISRs', a: L.isr, c: '#d64545' });
    if (L.idle) series.push({ name: 'idle', a: L.idle, c: '#e5e9ee' });
    series.forEach(function (sr) {
      g.fillStyle = sr.c;
      for (var k = 0; k < n; k++) {
        var len = (k === n - 1 && L.last_window) ? L.last_window : w, v = (sr.a[k] || 0) / (len * cpus);
        if (v <= 0) continue;
        var y0 = acc[k]; acc[k] = Math.min(1, y0 + v);
        var xa = m.l + k * pw / n, xb = m.l + (k + 1) * pw / n;
        g.fillRect(xa, H - m.b - acc[k] * ph, Math.max(1, xb - xa), (acc[k] - y0) * ph);
      }
      var sp = el('span'), i = el('i'); i.style.background = sr.c; sp.appendChild(i); sp.appendChild(document.createTextNode(sr.name)); lg.appendChild(sp);
    });
    axes(g, W, H, m, 100, 'load (% of window)', function (v) { return v.toFixed(0) + '%'; }, 'time since trace start' + (NS ? '' : ' (ticks)') + ', windows of ' + fmtDur(w), t0, t1);
  });
  var T = L.totals;
  if (T && Array.isArray(T.contexts)) {
    sub(box, 'Totals over ' + fmtDur(T.duration) + ': idle ' + fmtDur(T.idle_time) + ', ISRs ' + fmtDur(T.isr_time));
    box.appendChild(table(T.contexts.slice().sort(function (a, b) { return b.cpu_time - a.cpu_time; }), [
      { h: 'context', v: function (r) { return r.name; } },
      { h: 'class', v: function (r) { return r.class; } },
      { h: 'CPU time', v: function (r) { return r.cpu_time; }, f: fmtDur, t: 1 },
      { h: 'load', v: function (r) { return r.pct; }, f: function (v) { return v.toFixed(2) + '%'; } },
      { h: 'peak window', v: function (r) { var c = L.contexts.filter(function (x) { return x.id === r.id && x.name === r.name; })[0]; return c && c.peak_pct !== undefined ? c.peak_pct : ''; },
        f: function (v) { return v === '' ? '' : v.toFixed(1) + '%'; } }
    ]));
  }
}

/* Response-time table with a log-scale range plot (min..max line, p50..p90 box, p99 tick). */
function anResponse(box, R) {
  box.appendChild(el('h3', null, 'Response times'));
  if (!R || (!Array.isArray(R.tasks) && !Array.isArray(R.isrs))) { renderAnalysis(box, 'response', R, 1); return; }
  note(box, 'Tasks: from ready to blocked, suspended or done (one instance per activation); ISRs: entry to exit. ' +
    'Percentiles marked ~ come from a histogram (within 0.8%). Click a worst instance to see it on the timeline.');
  [['Tasks', R.tasks || []], ['ISRs', R.isrs || []]].forEach(function (pair) {
    var rows = pair[1];
    sub(box, pair[0] + ' (' + rows.length + ')');
    if (!rows.length) { note(box, 'none in this trace'); return; }
    rows = rows.slice().sort(function (a, b) { return b.max - a.max; });
    var approx = function (r) { return r.exact === false ? '~' : ''; };
    var wrap = table(rows, [
      { h: pair[0] === 'ISRs' ? 'ISR' : 'task', v: function (r) { return r.name; } },
      { h: 'count', v: function (r) { return r.count; }, f: fmtInt },
      { h: 'min', v: function (r) { return r.min; }, f: fmtDur, t: 1 },
      { h: 'p50', v: function (r) { return r.p50; }, f: function (v, r) { return approx(r) + fmtDur(v); }, t: 1 },
      { h: 'p90', v: function (r) { return r.p90; }, f: function (v, r) { return approx(r) + fmtDur(v); }, t: 1 },
      { h: 'p99', v: function (r) { return r.p99; }, f: function (v, r) { return approx(r) + fmtDur(v); }, t: 1 },
      { h: 'max', v: function (r) { return r.max; }, f: fmtDur, t: 1 },
      { h: 'worst instances (start, duration)', v: function () { return ''; } }
    ]);
    var trs = wrap.querySelectorAll('tbody tr');
    rows.forEach(function (r, i) {
      var td = trs[i].cells[7];
      (r.worst || []).forEach(function (wst, k) {
        if (k) td.appendChild(document.createTextNode(' \u00b7 '));
        td.appendChild(link(fmtT(rel(wst.t)) + ' (' + fmtDur(wst.duration) + ')', rel(wst.t), wst.duration));
      });
    });
    box.appendChild(wrap);
    var shown = rows.slice(0, 30), cv = chart(24 + shown.length * 18 + 40);
    box.appendChild(cv);
    later(function () {
      var W = cv.clientWidth || 900, H = 24 + shown.length * 18 + 40, g = fitCanvas(cv, W, H), m = { l: 200, r: 20, t: 12, b: 40 };
      var lo = Infinity, hi = 1;
      shown.forEach(function (r) { lo = Math.min(lo, Math.max(1, r.min)); hi = Math.max(hi, r.max); });
      if (!(lo < Infinity)) lo = 1;
      var llo = Math.log10(lo), lhi = Math.log10(Math.max(hi, lo * 10)), pw = W - m.l - m.r;
      var X = function (v) { return m.l + (Math.log10(Math.max(v, lo)) - llo) / (lhi - llo) * pw; };
      g.font = '11px system-ui, sans-serif'; g.textBaseline = 'middle';
      for (var e = Math.floor(llo); e <= Math.ceil(lhi); e++) {
        var v = Math.pow(10, e); if (v < lo / 1.0001 || v > Math.pow(10, lhi) * 1.0001) continue;
        var x = X(v); g.strokeStyle = '#eef1f4'; g.beginPath(); g.moveTo(x, m.t); g.lineTo(x, H - m.b); g.stroke();
        g.fillStyle = '#334155'; g.textAlign = 'center'; g.fillText(fmtDur(v), x, H - m.b + 10);
      }
      shown.forEach(function (r, i) {
        var y = m.t + i * 18 + 9;
        g.textAlign = 'right'; g.fillStyle = '#1f2933'; g.fillText(r.name.length > 30 ? r.name.slice(0, 29) + '\u2026' : r.name, m.l - 8, y);
        g.strokeStyle = '#94a3b8'; g.beginPath(); g.moveTo(X(r.min), y); g.lineTo(X(r.max), y); g.stroke();
        g.fillStyle = pair[0] === 'ISRs' ? '#d64545' : '#2f9e5b';
        g.fillRect(X(r.p50), y - 5, Math.max(2, X(r.p90) - X(r.p50)), 10);
        g.fillStyle = '#111827'; g.fillRect(X(r.p99) - 1, y - 7, 2, 14); g.fillRect(X(r.max) - 0.5, y - 4, 1, 8);
      });
      g.textAlign = 'center'; g.fillStyle = '#334155';
      g.fillText('response time (log scale): line min\u2013max, box p50\u2013p90, bar p99', m.l + pw / 2, H - 12);
      g.textAlign = 'left';
    });
  });
}

function anInversions(box, I) {
  box.appendChild(el('h3', null, 'Priority inversions'));
  if (!I || !Array.isArray(I.list)) { renderAnalysis(box, 'inversions', I, 1); return; }
  note(box, fmtInt(I.count || I.list.length) + ' inversion(s) in ' + fmtInt(I.waits || 0) + ' mutex wait(s); priority order: ' +
    String(I.priority_order || '').replace(/_/g, ' ') + (I.unknown_priority ? '; ' + fmtInt(I.unknown_priority) + ' wait(s) with an unknown priority' : '') +
    '. A higher-priority context waits on a mutex held by a lower-priority one while a middle-priority one runs.');
  if (!I.list.length) return;
  box.appendChild(table(I.list, [
    { h: 'start', v: function (r) { return rel(r.start); }, f: fmtT, t: 1 },
    { h: 'duration', v: function (r) { return r.duration; }, f: fmtDur, t: 1 },
    { h: 'mutex', v: function (r) { return r.mutex || ''; } },
    { h: 'high (blocked)', v: function (r) { return ctxLabel(r.high); } },
    { h: 'low (holder)', v: function (r) { return ctxLabel(r.low); } },
    { h: 'middle (ran)', v: function (r) { return ctxLabel(r.middle) + (Array.isArray(r.middles) ? r.middles.map(ctxLabel).join(', ') : ''); } },
    { h: 'middle ran for', v: function (r) { return r.middle_time; }, f: function (v) { return v === undefined ? '' : fmtDur(v); }, t: 1 }
  ], function (r) { jumpTo(rel(r.start), r.duration); }));
}

function stepPlot(box, title, hist, yName) {
  var cv = chart(140);
  box.appendChild(cv);
  later(function () {
    var W = cv.clientWidth || 600, H = 140, g = fitCanvas(cv, W, H), m = { l: 66, r: 12, t: 8, b: 40 };
    var pw = W - m.l - m.r, ph = H - m.t - m.b, mx = 1;
    hist.forEach(function (p) { mx = Math.max(mx, p[1]); });
    mx = Math.ceil(mx / 4) * 4; /* integer ticks */
    var t0 = 0, t1 = DUR, X = function (t) { return m.l + (rel(t) - t0) / (t1 - t0) * pw; }, Y = function (v) { return H - m.b - v / mx * ph; };
    g.strokeStyle = '#0e7490'; g.fillStyle = 'rgba(14,116,144,0.15)'; g.beginPath();
    g.moveTo(X(hist[0][0]), H - m.b);
    var yp = Y(hist[0][1]);
    g.lineTo(X(hist[0][0]), yp);
    for (var i = 1; i < hist.length; i++) { var x = X(hist[i][0]); g.lineTo(x, yp); yp = Y(hist[i][1]); g.lineTo(x, yp); }
    g.lineTo(m.l + pw, yp); g.lineTo(m.l + pw, H - m.b); g.closePath(); g.fill(); g.stroke();
    axes(g, W, H, m, mx, yName, function (v) { return Math.abs(v - Math.round(v)) < 1e-9 ? fmtInt(v) : v.toFixed(1); },
      title + ' \u2014 time since trace start' + (NS ? '' : ' (ticks)'), t0, t1);
  });
}
function anObjects(box, O) {
  box.appendChild(el('h3', null, 'Queues, semaphores, event flags, pools'));
  if (!Array.isArray(O)) { renderAnalysis(box, 'objects', O, 1); return; }
  if (!O.length) { note(box, 'No object counters or waits in this trace.'); return; }
  box.appendChild(table(O, [
    { h: 'object', v: function (r) { return r.name; } },
    { h: 'type', v: function (r) { return r.type || ''; } },
    { h: 'counters', v: function (r) { return (r.counters || []).map(function (c) { return c.name + ' ' + fmtInt(c.min) + '\u2013' + fmtInt(c.max) + ' (last ' + fmtInt(c.last) + ')'; }).join('; '); } },
    { h: 'blocked waits', v: function (r) { return r.waits ? r.waits.count : 0; }, f: fmtInt },
    { h: 'total wait', v: function (r) { return r.waits ? r.waits.total : 0; }, f: fmtDur, t: 1 },
    { h: 'longest wait', v: function (r) { return r.waits ? r.waits.max : 0; }, f: fmtDur, t: 1 },
    { h: 'max waiters', v: function (r) { return r.waits ? r.waits.max_waiters : 0; }, f: function (v, r) { return fmtInt(v) + (r.waits && r.waits.max_waiters_partial ? '+' : ''); } }
  ]));
  var plots = 0, grid = el('div', 'plots');
  box.appendChild(grid);
  O.forEach(function (o) {
    (o.counters || []).forEach(function (c) {
      if (!Array.isArray(c.history) || c.history.length < 2 || c.min === c.max || plots >= 16) return;
      plots++;
      var cell = el('div');
      grid.appendChild(cell);
      sub(cell, (o.type ? o.type + ' ' : '') + o.name + ': ' + c.name + ' over time' + (c.history_dropped ? ' (' + fmtInt(c.history_dropped) + ' samples thinned out)' : ''));
      stepPlot(cell, c.name, c.history, c.name);
    });
  });
  if (!plots) note(box, 'No counter changes over time.');
}

function anFlows(box, F) {
  box.appendChild(el('h3', null, 'Flows between contexts'));
  if (!Array.isArray(F)) { renderAnalysis(box, 'flows', F, 1); return; }
  if (!F.length) { note(box, 'No wake-ups or messages between contexts.'); return; }
  note(box, 'Wake-ups (signal \u2192 woken one runs) and messages (send \u2192 receive), per pair; latency from the source event to the destination.');
  box.appendChild(table(F.slice().sort(function (a, b) { return b.count - a.count; }), [
    { h: 'kind', v: function (r) { return r.kind; } },
    { h: 'from', v: function (r) { return r.from || ''; } },
    { h: 'to', v: function (r) { return r.to || ''; } },
    { h: 'object', v: function (r) { return r.object || ''; } },
    { h: 'count', v: function (r) { return r.count; }, f: fmtInt },
    { h: 'min latency', v: function (r) { return r.min; }, f: fmtDur, t: 1 },
    { h: 'mean latency', v: function (r) { return r.count ? r.sum / r.count : 0; }, f: fmtDur, t: 1 },
    { h: 'max latency', v: function (r) { return r.max; }, f: fmtDur, t: 1 }
  ]));
}

function anStacks(box, S2) {
  box.appendChild(el('h3', null, 'Stack usage'));
  if (!Array.isArray(S2)) { renderAnalysis(box, 'stacks', S2, 1); return; }
  if (!S2.length) { note(box, 'The trace carries no stack-pointer samples.'); return; }
  note(box, 'From the stack-pointer samples the trace carries, against each thread\'s stack start and size. A sample outside the stack is counted, not used.');
  var wrap = table(S2, [
    { h: 'thread', v: function (r) { return r.name; } },
    { h: 'stack size', v: function (r) { return r.stack_size; }, f: function (v) { return v === null || v === undefined ? '' : fmtInt(v) + ' B'; } },
    { h: 'samples', v: function (r) { return r.samples; }, f: fmtInt },
    { h: 'outside the stack', v: function (r) { return r.out_of_range || 0; }, f: fmtInt },
    { h: 'max used', v: function (r) { return r.max_used === null ? -1 : r.max_used; }, f: function (v) { return v < 0 ? 'n/a' : fmtInt(v) + ' B'; } },
    { h: 'used', v: function (r) { return r.used_pct === null ? -1 : r.used_pct; }, f: function (v) { return v < 0 ? 'n/a' : v.toFixed(1) + '%'; } },
    { h: '', v: function () { return ''; } }
  ]);
  var trs = wrap.querySelectorAll('tbody tr');
  S2.forEach(function (r, i) {
    if (r.used_pct === null || r.used_pct === undefined) return;
    var bar = el('span', 'bar'), f = el('i');
    f.style.width = Math.min(100, r.used_pct) + '%';
    f.style.background = r.used_pct >= 90 ? '#d64545' : r.used_pct >= 70 ? '#f2b233' : '#2f9e5b';
    bar.appendChild(f); trs[i].cells[6].appendChild(bar);
  });
  box.appendChild(wrap);
}

function inversionMarks() {
  var I = AN && AN.inversions && Array.isArray(AN.inversions.list) ? AN.inversions.list : [];
  I.forEach(function (r) {
    var ci = -1;
    if (r.high) for (var i = 0; i < D.ctx.length; i++) {
      if (D.ctx[i].name === r.high.name && (r.high.id === undefined || D.ctx[i].id === null ||
          parseInt(D.ctx[i].id, 16) === r.high.id)) { ci = i; break; }
    }
    if (ci >= 0 && typeof r.start === 'number') INV.push({ ctx: ci, t0: rel(r.start), t1: rel(r.start) + (r.duration || 0), r: r });
  });
}
function analyses() {
  var box = $('analyses');
  if (anError) { note(box, 'The analyses block could not be read: ' + anError); return; }
  if (!AN) { note(box, 'No analyses in this report.'); return; }
  if (AN.error) box.appendChild(el('div', 'warnline', 'Analyses: ' + AN.error));
  if (AN.complete === false) box.appendChild(el('div', 'warnline', 'The analyses are incomplete (out of memory or limits reached): see the counts below.'));
  var known = { load: anLoad, response: anResponse, inversions: anInversions, objects: anObjects, flows: anFlows, stacks: anStacks };
  var skip = { unit: 1, complete: 1, error: 1 };
  ['load', 'response', 'inversions', 'objects', 'flows', 'stacks'].forEach(function (k) {
    if (AN[k] !== undefined) {
      var sec = el('div', 'an-sec');
      sec.id = 'an-' + k;
      box.appendChild(sec);
      try { known[k](sec, AN[k]); } catch (e) { sec.textContent = ''; renderAnalysis(sec, k, AN[k], 0); }
    }
  });
  Object.keys(AN).forEach(function (k) { if (!known[k] && !skip[k]) renderAnalysis(box, k.replace(/_/g, ' '), AN[k], 0); });
}

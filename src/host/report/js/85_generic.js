/* A generic view of analysis keys the page has no dedicated view for: arrays of objects as
 * tables (with a line plot of a time series), objects as key/value tables. */
function isTimeKey(k) { return /(^|_)(t|t0|t1|ts|start|end|time|at|min|max|mean|avg|p50|p90|p95|p99|dur|duration|sum|total|busy|idle|isr|response|window|width|worst)(_|$)/.test(k) && !/(count|pct|percent|load|share|events|n$|index|prio|depth|value|bytes|size|used|free)/.test(k); }
function fmtCell(k, v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') {
    if (/pct|percent|load|share/.test(k)) return (v <= 1.0001 && /share|ratio/.test(k) ? (v * 100).toFixed(2) : v.toFixed(2)) + '%';
    if (isTimeKey(k)) return /(^|_)(t|t0|t1|ts|start|end|at)$/.test(k) ? fmtT(v) : fmtDur(v);
    return Number.isInteger(v) ? fmtInt(v) : v.toFixed(3);
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
function timeOfRow(r) {
  var ks = ['t', 't0', 'start', 'ts', 'at', 'time'];
  for (var i = 0; i < ks.length; i++) if (typeof r[ks[i]] === 'number') return r[ks[i]];
  return null;
}
function arrayTable(name, arr) {
  var keys = [];
  arr.slice(0, 50).forEach(function (r) { Object.keys(r).forEach(function (k) { if (keys.indexOf(k) < 0 && typeof r[k] !== 'object') keys.push(k); }); });
  var shown = arr.slice(0, 2000);
  var cols = keys.map(function (k) {
    return { h: k, v: function (r) { return r[k]; }, f: function (v) { return fmtCell(k, v); }, t: typeof shown[0][k] === 'number' && isTimeKey(k) };
  });
  var wrap = table(shown, cols, function (r) {
    var t = timeOfRow(r);
    if (t === null) return;
    var t0 = t - (D.origin && t > DUR ? D.origin : 0), e = typeof r.t1 === 'number' ? r.t1 : typeof r.end === 'number' ? r.end : t0;
    var span = Math.max((e - t0) * 4, (view.t1 - view.t0) / 8, MIN_SPAN * 10);
    setView(t0 - span / 2, t0 + span / 2);
    $('timeline-panel').scrollIntoView({ block: 'start' });
  });
  var out = el('div');
  out.appendChild(wrap);
  if (arr.length > shown.length) out.appendChild(el('p', 'meta', 'First ' + fmtInt(shown.length) + ' of ' + fmtInt(arr.length) + ' rows.'));
  return out;
}
/* A series of {t, value...} rows as a line plot with labelled axes. */
function seriesPlot(name, arr, tk, vk) {
  var cv = el('canvas', 'plot');
  setTimeout(function () {
    var W = cv.clientWidth || 800, H = 200, g = fitCanvas(cv, W, H), m = { l: 60, r: 12, t: 10, b: 42 };
    var mx = 0, t0 = Infinity, t1 = -Infinity;
    arr.forEach(function (r) { mx = Math.max(mx, r[vk]); t0 = Math.min(t0, r[tk]); t1 = Math.max(t1, r[tk]); });
    if (!(t1 > t0)) t1 = t0 + 1;
    if (mx <= 0) mx = 1;
    var pw = W - m.l - m.r, ph = H - m.t - m.b, pct = /pct|percent|load/.test(vk);
    if (pct) mx = Math.max(100, mx);
    g.strokeStyle = '#2563eb'; g.lineWidth = 1.5; g.beginPath();
    arr.forEach(function (r, i) {
      var x = m.l + (r[tk] - t0) * pw / (t1 - t0), y = H - m.b - r[vk] / mx * ph;
      if (i) g.lineTo(x, y); else g.moveTo(x, y);
    });
    g.stroke(); g.lineWidth = 1;
    axes(g, W, H, m, mx, vk, function (v) { return pct ? v.toFixed(0) + '%' : isTimeKey(vk) ? fmtDur(v) : (Math.abs(v) >= 100 ? fmtInt(v) : v.toFixed(1)); },
      tk + ' (time since trace start' + (NS ? ')' : ', ticks)'), t0, t1);
  }, 0);
  return cv;
}
function renderAnalysis(box, name, v, depth) {
  if (Array.isArray(v)) {
    box.appendChild(el(depth ? 'h4' : 'h3', null, name + ' (' + fmtInt(v.length) + ')'));
    if (!v.length) { box.appendChild(el('p', 'meta', 'none found')); return; }
    if (typeof v[0] !== 'object' || v[0] === null) { box.appendChild(el('p', null, v.map(function (x) { return fmtCell(name, x); }).join(', '))); return; }
    var tk = ['t', 't0', 'start'].filter(function (k) { return typeof v[0][k] === 'number'; })[0];
    var vk = Object.keys(v[0]).filter(function (k) { return typeof v[0][k] === 'number' && k !== tk && /pct|load|depth|count|value|used|waiters|suspended|enqueued|available/.test(k); })[0];
    if (tk && vk && v.length > 2) box.appendChild(seriesPlot(name, v, tk, vk));
    box.appendChild(arrayTable(name, v));
    v.forEach(function (r) {
      Object.keys(r).forEach(function (k) { if (Array.isArray(r[k]) && r[k].length && typeof r[k][0] === 'object' && depth < 2 && v.length <= 20) renderAnalysis(box, (r.name || r.context || r.object || '') + ' \u2014 ' + k, r[k], depth + 1); });
    });
  } else if (v && typeof v === 'object') {
    if (depth) box.appendChild(el('h4', null, name)); else box.appendChild(el('h3', null, name));
    var scal = Object.keys(v).filter(function (k) { return typeof v[k] !== 'object' || v[k] === null; });
    if (scal.length) {
      var tb = el('table', 'grid'), body = el('tbody');
      scal.forEach(function (k) { var tr = el('tr'); tr.appendChild(el('td', null, k)); tr.appendChild(el('td', 't', fmtCell(k, v[k]))); body.appendChild(tr); });
      tb.appendChild(body); box.appendChild(tb);
    }
    Object.keys(v).forEach(function (k) { if (v[k] && typeof v[k] === 'object') renderAnalysis(box, k, v[k], depth + 1); });
  } else {
    box.appendChild(el('p', null, name + ': ' + fmtCell(name, v)));
  }
}
/* The analyses object (docs/analyses.md): load, response, inversions, objects, flows, stacks
 * get their own tables and plots; any other key is shown as generic tables. Its times are in
 * the timeline's unit, absolute (origin = D.origin). */

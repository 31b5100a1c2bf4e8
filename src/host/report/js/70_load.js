/* CPU load over the visible range (stacked per context, ISRs on top) and the labelled axes every
 * chart of the page uses. */
/* Busy share per bin over [t0,t1): per context running time minus the ISRs that interrupted
 * it, ISR time, over ncpus x bin width. */
function loadBins(t0, t1, nb) {
  var w = (t1 - t0) / nb, per = {}, isr = new Float64Array(nb), total = new Float64Array(nb), cap = w * D.ncpus;
  /* add the overlap of [a,b) with each bin to arr (and take it from minus, when given) */
  function addTo(arr, a, b, minus) {
    a = Math.max(a, t0); b = Math.min(b, t1);
    if (b <= a) return;
    var i0 = Math.floor((a - t0) / w), i1 = Math.min(nb - 1, Math.floor((b - t0) / w));
    for (var i = i0; i <= i1; i++) {
      var s = t0 + i * w, e = s + w, o = Math.min(b, e) - Math.max(a, s);
      if (o > 0) { arr[i] += o; if (minus) minus[i] = Math.max(0, minus[i] - o); }
    }
  }
  lanes.forEach(function (ln) {
    if (ln.kind !== 'ctx' || !ln.states.n) return;
    var row = ln.states, arr = null;
    for (var i = lowerBound(row.m, t0, 0, row.n); i < row.n && row.t0[i] < t1; i++) {
      if (D.states[row.ref[i] * 8 + 1] !== ST_RUN) continue;
      if (!arr) arr = per[ln.ctx] = new Float64Array(nb);
      addTo(arr, row.t0[i], row.t1[i]);
    }
  });
  lanes.forEach(function (ln) {
    if (ln.kind !== 'isr' || !ln.rows[0]) return;
    var row = ln.rows[0];
    for (var i = lowerBound(row.m, t0, 0, row.n); i < row.n && row.t0[i] < t1; i++)
      addTo(isr, row.t0[i], row.t1[i], per[D.isrs[row.ref[i] * 9 + 5]]);
  });
  Object.keys(per).forEach(function (k) { var a = per[k]; for (var b = 0; b < nb; b++) { a[b] /= cap; total[b] += a[b]; } });
  for (var b = 0; b < nb; b++) { isr[b] /= cap; total[b] += isr[b]; }
  return { per: per, isr: isr, total: total, w: w };
}
function axes(g, W, H, m, yMax, yLabel, yFmt, xLabel, t0, t1) {
  g.strokeStyle = '#9aa5b1'; g.fillStyle = '#334155'; g.font = '11px system-ui, sans-serif';
  g.beginPath(); g.moveTo(m.l, m.t); g.lineTo(m.l, H - m.b); g.lineTo(W - m.r, H - m.b); g.stroke();
  g.textAlign = 'right'; g.textBaseline = 'middle';
  for (var k = 0; k <= 4; k++) {
    var v = yMax * k / 4, y = H - m.b - (H - m.t - m.b) * k / 4;
    g.fillText(yFmt(v), m.l - 5, y);
    g.strokeStyle = '#eef1f4'; g.beginPath(); g.moveTo(m.l + 1, y); g.lineTo(W - m.r, y); g.stroke();
  }
  g.textAlign = 'center'; g.textBaseline = 'top';
  var pw = W - m.l - m.r, step = niceStep((t1 - t0) / Math.max(2, pw / 120));
  if (!NS) step = Math.max(1, step);
  for (var t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    var x = m.l + (t - t0) * pw / (t1 - t0);
    g.strokeStyle = '#9aa5b1'; g.beginPath(); g.moveTo(x, H - m.b); g.lineTo(x, H - m.b + 4); g.stroke();
    g.fillText(tickLabel(t, step, t1), x, H - m.b + 6);
  }
  g.fillText(xLabel, m.l + pw / 2, H - 14);
  g.save(); g.translate(12, m.t + (H - m.t - m.b) / 2); g.rotate(-Math.PI / 2); g.fillText(yLabel, 0, -6); g.restore();
  g.textAlign = 'left';
}
function drawLoad() {
  var cv = $('load'), W = cv.clientWidth, H = 240, g = fitCanvas(cv, W, H), m = { l: 56, r: 12, t: 10, b: 42 };
  var t0 = Math.max(0, view.t0), t1 = Math.min(DUR, view.t1), pw = W - m.l - m.r, nb = Math.max(1, Math.floor(pw / 3));
  g.clearRect(0, 0, W, H);
  if (t1 <= t0) return;
  var L = loadBins(t0, t1, nb), keys = Object.keys(L.per).map(Number);
  var sum = {};
  keys.forEach(function (k) { var s = 0, a = L.per[k]; for (var b = 0; b < nb; b++) s += a[b]; sum[k] = s; });
  keys.sort(function (a, b) { return sum[b] - sum[a]; });
  var top = keys.filter(function (k) { return ctxColor(k); }), rest = keys.filter(function (k) { return !ctxColor(k); }), series = [];
  top.forEach(function (k) { series.push({ name: ctxName(k), a: L.per[k], c: ctxColor(k) }); });
  if (rest.length) {
    var o = new Float64Array(nb);
    rest.forEach(function (k) { for (var b = 0; b < nb; b++) o[b] += L.per[k][b]; });
    series.push({ name: rest.length + ' other context' + (rest.length > 1 ? 's' : ''), a: o, c: '#5b6b7f' });
  }
  series.push({ name: 'ISRs', a: L.isr, c: '#d64545' });
  var ph = H - m.t - m.b, acc = new Float64Array(nb), bw = pw / nb;
  series.forEach(function (s) {
    g.fillStyle = s.c;
    for (var b = 0; b < nb; b++) {
      var v = Math.min(1, s.a[b]); if (v <= 0) continue;
      var y0 = acc[b]; acc[b] = Math.min(1, y0 + v);
      g.fillRect(m.l + b * bw, H - m.b - acc[b] * ph, Math.ceil(bw), (acc[b] - y0) * ph);
    }
  });
  axes(g, W, H, m, 100, 'CPU load (%)', function (v) { return v.toFixed(0) + '%'; },
    'time since trace start' + (NS ? '' : ' (ticks)') + ' \u2014 visible range, bins of ' + fmtDur(L.w), t0, t1);
  var lg = $('load-legend');
  lg.textContent = '';
  series.forEach(function (s) {
    var tot = 0; for (var b = 0; b < nb; b++) tot += s.a[b];
    var sp = el('span'), i = el('i'); i.style.background = s.c; sp.appendChild(i);
    sp.appendChild(document.createTextNode(s.name + ' ' + (tot / nb * 100).toFixed(1) + '%'));
    lg.appendChild(sp);
  });
  $('load-note').textContent = D.ncpus > 1 ? '(' + D.ncpus + ' CPUs: 100% = all busy)' : '';
}

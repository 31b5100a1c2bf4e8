/* Formatting of times (ns, us, ms, s, or ticks when the clock is unknown), numbers and names;
 * DOM element creation (text only through textContent: nothing from the trace is parsed as
 * HTML); binary search; the colours of contexts and slices. */
function fmtInt(v) { return Math.round(v).toLocaleString('en-US'); }
function unitOf(step) {
  if (!NS) return { div: 1, name: 'ticks' };
  if (step >= 1e9) return { div: 1e9, name: 's' };
  if (step >= 1e6) return { div: 1e6, name: 'ms' };
  if (step >= 1e3) return { div: 1e3, name: '\u00b5s' };
  return { div: 1, name: 'ns' };
}
/* A duration with about 4 significant digits in the best unit. */
function fmtDur(v) {
  if (!NS) return (Math.abs(v) < 10 && v !== Math.round(v) ? v.toFixed(2) : fmtInt(v)) + ' ticks';
  var u = unitOf(Math.abs(v)), x = v / u.div, a = Math.abs(x);
  var dec = a >= 100 ? 1 : a >= 10 ? 2 : 3;
  if (u.div === 1) dec = 0;
  return x.toFixed(dec) + ' ' + u.name;
}
/* A time since the trace start (times in the page are relative to the first event). */
function fmtT(t) { return (NS ? fmtExact(t) : fmtInt(t) + ' ticks'); }
function fmtExact(t) { /* ns, full precision in the best unit */
  var u = unitOf(Math.abs(t) || 1);
  if (u.div === 1) return fmtInt(t) + ' ns';
  var dec = Math.round(Math.log10(u.div));
  return (t / u.div).toFixed(dec) + ' ' + u.name;
}
/* A time shown to about 1/1000 of the span it is part of. */
function fmtAt(t, span) {
  if (!NS) return fmtInt(t) + ' ticks';
  var u = unitOf(Math.max(Math.abs(t), span)), dec = Math.ceil(Math.log10(u.div / Math.max(span / 1000, 1)));
  return (t / u.div).toFixed(Math.min(9, Math.max(0, dec))) + ' ' + u.name;
}
function strOf(id) { return id > 0 && id < S.length ? S[id] : ''; }
function ctxName(i) { return i >= 0 && i < CTX.length ? CTX[i].name : (i < 0 ? 'idle / none' : '#' + i); }
function objName(i) {
  if (i < 0 || i >= OBJ.length) return '';
  var o = OBJ[i];
  return (o.type ? o.type + ' ' : '') + o.name;
}
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function lowerBound(a, v, lo, hi) { /* first i in [lo,hi) with a[i] >= v */
  while (lo < hi) { var m = (lo + hi) >>> 1; if (a[m] < v) lo = m + 1; else hi = m; }
  return lo;
}
/* One colour per context in every load chart: the 9 busiest (whole trace) get their own. */
var CTX_COLOR = {};
(function () {
  var idx = D.ctx.map(function (c, i) { return i; }).filter(function (i) { return D.ctx[i].run > 0; });
  idx.sort(function (a, b) { return D.ctx[b].run - D.ctx[a].run; });
  idx.slice(0, 9).forEach(function (i, k) { CTX_COLOR[i] = LOAD_COLORS[k]; });
})();
function ctxColor(i) { return CTX_COLOR[i] || null; }
function ctxByName(name) {
  for (var i = 0; i < D.ctx.length; i++) if (D.ctx[i].name === name) return i;
  return -1;
}
function hashColor(id) {
  var h = (Math.imul(id + 1, 2654435761) >>> 0) % 360;
  return 'hsl(' + h + ',48%,66%)';
}

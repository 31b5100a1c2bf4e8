/* The swimlanes: the timeline's records grouped per lane (ISR contexts, threads, no-context,
 * object counters) as rows sorted by start time, with the running maximum of the ends for the
 * first visible interval; the listed events' absolute times and per-lane indexes. */
/* A row of intervals: t0/t1 sorted by t0, m = running max of t1 (for the first visible one). */
function makeRow(list) {
  list.sort(function (a, b) { return a[0] - b[0]; });
  var n = list.length, r = { n: n, t0: new Float64Array(n), t1: new Float64Array(n), m: new Float64Array(n),
    ref: new Int32Array(n) }, mx = -Infinity;
  for (var i = 0; i < n; i++) {
    r.t0[i] = list[i][0]; r.t1[i] = list[i][1]; r.ref[i] = list[i][2];
    mx = Math.max(mx, r.t1[i]); r.m[i] = mx;
  }
  return r;
}
var nEv = D.ev.t.length, evT = new Float64Array(nEv);
(function () { var t = 0; for (var i = 0; i < nEv; i++) { t += D.ev.t[i]; evT[i] = t; } })();

var lanes = [], laneOfCtx = {}, laneOfIsrKey = {};
var ctxStates = {}, ctxSlices = {}, ctxEvents = {};
(function build() {
  var i, k, st = D.states, sl = D.slices, is = D.isrs;
  for (i = 0; i < st.length; i += 8) {
    k = st[i]; (ctxStates[k] = ctxStates[k] || []).push([st[i + 3], st[i + 3] + st[i + 4], i / 8]);
  }
  for (i = 0; i < sl.length; i += 8) {
    k = sl[i]; var d = Math.min(sl[i + 4], 5);
    var rows = ctxSlices[k] = ctxSlices[k] || [];
    (rows[d] = rows[d] || []).push([sl[i + 2], sl[i + 2] + sl[i + 3], i / 8]);
  }
  for (i = 0; i < nEv; i++) { k = D.ev.c[i]; (ctxEvents[k] = ctxEvents[k] || []).push(i); }
  var isrGroups = {}, isrOrder = [];
  for (i = 0; i < is.length; i += 9) {
    var key = is[i + 4] >= 0 ? 'c' + is[i + 4] : 'n' + is[i + 7];
    if (!isrGroups[key]) { isrGroups[key] = { rows: [], name: is[i + 4] >= 0 ? ctxName(is[i + 4]) : strOf(is[i + 7]),
      ctx: is[i + 4] }; isrOrder.push(key); }
    var dd = Math.min(is[i + 3], 3), g = isrGroups[key];
    (g.rows[dd] = g.rows[dd] || []).push([is[i + 1], is[i + 1] + is[i + 2], i / 9]);
  }
  CTX.forEach(function (c, ci) {
    if (c.class === 'isr' && !isrGroups['c' + ci] && ctxEvents[ci]) {
      isrGroups['c' + ci] = { rows: [], name: c.name, ctx: ci }; isrOrder.push('c' + ci);
    }
  });
  function evRow(ci) {
    var list = ctxEvents[ci] || [];
    list.sort(function (a, b) { return evT[a] - evT[b]; });
    var t = new Float64Array(list.length);
    for (var j = 0; j < list.length; j++) t[j] = evT[list[j]];
    return { idx: Int32Array.from(list), t: t };
  }
  function group(label) { lanes.push({ kind: 'group', label: label, h: 18 }); }
  if (isrOrder.length) {
    group('Interrupts');
    isrOrder.forEach(function (key) {
      var g = isrGroups[key], rows = [];
      for (var d2 = 0; d2 < g.rows.length; d2++) rows.push(makeRow(g.rows[d2] || []));
      var ln = { kind: 'isr', label: g.name, ctx: g.ctx, rows: rows, ev: g.ctx >= 0 ? evRow(g.ctx) : evRow(-2),
        h: Math.max(1, rows.length) * 14 + 8 };
      laneOfIsrKey[key] = lanes.length;
      if (g.ctx >= 0) laneOfCtx[g.ctx] = lanes.length;
      lanes.push(ln);
    });
  }
  var threads = [], others = [];
  CTX.forEach(function (c, ci) {
    if (c.class === 'isr') return;
    (c.class === 'none' ? others : threads).push(ci);
  });
  function ctxLane(ci) {
    var c = CTX[ci], rows = (ctxSlices[ci] || []).map(function (r) { return makeRow(r || []); });
    var ln = { kind: 'ctx', label: c.name, sub: c.prio !== null ? 'prio ' + c.prio : c.class, ctx: ci,
      states: makeRow(ctxStates[ci] || []), slices: rows, ev: evRow(ci), h: 22 + rows.length * 16 };
    laneOfCtx[ci] = lanes.length;
    lanes.push(ln);
  }
  if (threads.length) { group('Threads / tasks'); threads.forEach(ctxLane); }
  if (others.length) { group('No context'); others.forEach(ctxLane); }
  var cn = D.counters, cg = {}, corder = [];
  for (i = 0; i < cn.length; i += 4) {
    var ck = cn[i] + ':' + cn[i + 1];
    if (!cg[ck]) { cg[ck] = { obj: cn[i], name: strOf(cn[i + 1]), pts: [] }; corder.push(ck); }
    cg[ck].pts.push([cn[i + 2], cn[i + 3], i / 4]);
  }
  if (corder.length) {
    group('Objects (counters)');
    corder.forEach(function (ck) {
      var g = cg[ck];
      g.pts.sort(function (a, b) { return a[0] - b[0]; });
      var n = g.pts.length, t = new Float64Array(n), v = new Float64Array(n), ref = new Int32Array(n), mx = 0;
      for (var j = 0; j < n; j++) { t[j] = g.pts[j][0]; v[j] = g.pts[j][1]; ref[j] = g.pts[j][2]; mx = Math.max(mx, v[j]); }
      lanes.push({ kind: 'counter', label: (g.obj >= 0 ? objName(g.obj) : 'global'), sub: g.name, t: t, v: v,
        ref: ref, max: mx, h: 34 });
    });
  }
  var y = 0;
  lanes.forEach(function (l) { l.y = y; y += l.h; });
  lanes.total = y;
})();

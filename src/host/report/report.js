/* The evtrace report viewer: reads the page's data JSON (#evt-data, written by report_data.c;
 * layout in docs/report.md) and the analyses JSON (#evt-analyses), and draws on canvases:
 * swimlanes (per-context states and slices, ISR lanes, object counters, flows, lost ranges), a
 * time ruler, an overview, a virtualised event list synced with the timeline, a details panel,
 * CPU load over the visible range, the analyses and the contexts table. Text from the trace only
 * ever goes through textContent (never parsed as HTML). Drawing cost per frame is bounded by the
 * pixel columns: intervals narrower than a pixel are merged into one column per pixel. */
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };
  var RAW = JSON.parse($('evt-data').textContent), D = RAW.meta;
  ['states', 'isrs', 'slices', 'counters', 'flows', 'lost', 'ev'].forEach(function (k) { D[k] = RAW[k]; });
  /* times: relative to the first event in the file, shifted here to the trace's earliest time */
  (function shift(sh) {
    function add(a, stride, offs) { for (var i = 0; i < a.length; i += stride) offs.forEach(function (o) { a[i + o] += sh; }); }
    if (!sh) return;
    add(D.states, 8, [3]); add(D.isrs, 9, [1]); add(D.slices, 8, [2]); add(D.counters, 4, [2]);
    add(D.flows, 6, [3, 4]); add(D.lost, 4, [1, 2]);
    if (D.ev.t.length) D.ev.t[0] += sh;
  })(D.shift);
  var AN = null, anError = null;
  try { AN = JSON.parse($('evt-analyses').textContent); } catch (e) { anError = String(e); }
  var S = D.strings, NS = D.unit === 'ns', DUR = Math.max(D.duration, 1);
  var CTX = D.ctx, OBJ = D.obj;
  var ST_RUN = D.state_names.indexOf('running');
  var STATE_COLORS = { running: '#2f9e5b', ready: '#f2b233', blocked: '#9aa9bb', suspended: '#a68af0',
    terminated: '#d9dde3', unknown: '#eef1f4' };
  var ISR_COLORS = ['#d64545', '#e0782f', '#b8329a', '#8d3fd1'];
  var LOST_FILL = 'rgba(220,38,38,0.22)', LOST_EDGE = '#dc2626', FLOW_COLOR = 'rgba(37,99,235,0.6)';
  var LOAD_COLORS = ['#2f9e5b', '#2563eb', '#f2b233', '#8d3fd1', '#0e9fb5', '#e0782f', '#6b8e23', '#c2417a',
    '#5b6b7f', '#a0522d'];

  /* ---------- formatting ---------- */
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

  /* ---------- the data as sorted per-lane arrays ---------- */
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

  /* ---------- view state ---------- */
  var view = { t0: 0, t1: DUR }, sel = null, hoverX = -1;
  var MIN_SPAN = NS ? 10 : 2;
  function setView(t0, t1) {
    var span = Math.max(t1 - t0, MIN_SPAN), full = DUR * 1.02;
    if (span > full) span = full;
    var lo = -DUR * 0.01;
    if (t0 < lo) t0 = lo;
    if (t0 + span > DUR * 1.01) t0 = DUR * 1.01 - span;
    view.t0 = t0; view.t1 = t0 + span;
    schedule();
    scheduleSlow();
  }
  function zoomAt(f, frac) {
    var span = view.t1 - view.t0, t = view.t0 + span * frac, ns = span * f;
    setView(t - ns * frac, t - ns * frac + ns);
  }
  function pan(fr) { var span = view.t1 - view.t0; setView(view.t0 + span * fr, view.t1 + span * fr); }
  function fit() { setView(-DUR * 0.005, DUR * 1.005); }
  function centreOn(t) { var span = view.t1 - view.t0; setView(t - span / 2, t + span / 2); }

  /* ---------- canvases ---------- */
  var cvTl = $('tl'), cvRuler = $('ruler'), cvOv = $('overview'), lanesBox = $('lanes');
  var dpr = window.devicePixelRatio || 1;
  function fitCanvas(cv, w, h) {
    if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(h * dpr)) {
      cv.width = Math.round(w * dpr); cv.height = Math.round(h * dpr);
      cv.style.height = h + 'px';
    }
    var g = cv.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    return g;
  }
  function xOf(t, W) { return (t - view.t0) * W / (view.t1 - view.t0); }

  function niceStep(raw) {
    var p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function ticks(W) {
    var span = view.t1 - view.t0, step = niceStep(span / Math.max(2, W / 110));
    if (!NS) step = Math.max(1, step);
    var out = [], first = Math.ceil(view.t0 / step) * step;
    for (var t = first; t <= view.t1; t += step) out.push(t);
    return { step: step, list: out };
  }
  function tickLabel(t, step, hi) {
    if (Math.abs(t) < step * 1e-6) t = 0; /* no "-0" */
    if (!NS) return fmtInt(t);
    /* the unit of the larger end of the view, the decimals of the step: "0.5 ms", "1.0 ms" */
    var u = unitOf(Math.max(hi !== undefined ? Math.abs(hi) : Math.max(Math.abs(view.t0), Math.abs(view.t1)), step));
    var dec = Math.max(0, Math.ceil(-Math.log10(step / u.div) - 1e-9));
    var txt = (t / u.div).toFixed(dec);
    return (txt === '-0' ? '0' : txt) + ' ' + u.name;
  }

  function drawRuler() {
    var W = cvRuler.clientWidth, H = 26, g = fitCanvas(cvRuler, W, H), tk = ticks(W);
    g.clearRect(0, 0, W, H);
    g.fillStyle = '#f7f9fb'; g.fillRect(0, 0, W, H);
    g.strokeStyle = '#9aa5b1'; g.fillStyle = '#334155'; g.font = '11px system-ui, sans-serif'; g.textBaseline = 'top';
    tk.list.forEach(function (t) {
      var x = Math.round(xOf(t, W)) + 0.5;
      g.beginPath(); g.moveTo(x, H - 8); g.lineTo(x, H); g.stroke();
      g.fillText(tickLabel(t, tk.step), x + 3, 3);
    });
    var L = D.lost;
    for (var i = 0; i < L.length; i += 4) {
      var xa = xOf(L[i + 1], W), xb = xOf(L[i + 2], W);
      if (xb < 0 || xa > W) continue;
      g.fillStyle = LOST_EDGE; g.fillRect(Math.max(0, xa), H - 6, Math.max(2, xb - xa), 6);
      g.fillText('lost ' + (L[i + 3] >= 0 ? fmtInt(L[i + 3]) : '?'), Math.max(0, xa) + 2, 14);
    }
    var r = $('range');
    r.textContent = 'visible ' + fmtAt(Math.max(0, view.t0), view.t1 - view.t0) + ' \u2013 ' +
      fmtAt(Math.min(DUR, view.t1), view.t1 - view.t0) + '  (' + fmtDur(view.t1 - view.t0) + ')';
    r.dataset.t0 = view.t0; r.dataset.t1 = view.t1;
  }

  var ovLoad = null;
  function drawOverview() {
    var W = cvOv.clientWidth, H = 34, g = fitCanvas(cvOv, W, H);
    if (!ovLoad || ovLoad.length !== Math.max(1, Math.floor(W))) ovLoad = loadBins(0, DUR, Math.max(1, Math.floor(W))).total;
    g.clearRect(0, 0, W, H);
    g.fillStyle = '#f3f6f9'; g.fillRect(0, 0, W, H);
    g.fillStyle = '#7fbf98';
    for (var x = 0; x < ovLoad.length; x++) { var h = Math.min(1, ovLoad[x]) * (H - 4); g.fillRect(x, H - h, 1, h); }
    var L = D.lost;
    for (var i = 0; i < L.length; i += 4) {
      var xa = L[i + 1] * W / DUR; g.fillStyle = LOST_EDGE; g.fillRect(xa, 0, Math.max(1, (L[i + 2] - L[i + 1]) * W / DUR), H);
    }
    var a = Math.max(0, view.t0) * W / DUR, b = Math.min(DUR, view.t1) * W / DUR;
    g.fillStyle = 'rgba(30,42,58,0.18)'; g.fillRect(0, 0, a, H); g.fillRect(b, 0, W - b, H);
    g.strokeStyle = '#2563eb'; g.lineWidth = 1.5; g.strokeRect(a + 0.5, 0.5, Math.max(2, b - a - 1), H - 1);
    g.lineWidth = 1;
  }

  /* Draw one row of intervals in [y, y+h): wide ones as boxes (with a label when it fits), the
   * ones narrower than a pixel merged per pixel column (the longest one gives the colour). */
  function drawRow(g, row, W, y, h, color, label, busy) {
    if (!row || !row.n) return;
    var k = W / (view.t1 - view.t0), x0 = view.t0;
    var i = lowerBound(row.m, view.t0, 0, row.n);
    while (i < row.n && row.t0[i] <= view.t1) {
      var xa = (row.t0[i] - x0) * k, xb = (row.t1[i] - x0) * k;
      if (xb - xa >= 1) {
        var a = Math.max(xa, -2), b = Math.min(xb, W + 2);
        g.fillStyle = color(row.ref[i]);
        g.fillRect(a, y, b - a, h);
        if (label && b - a > 34) {
          var s = label(row.ref[i]);
          if (s) {
            g.save(); g.beginPath(); g.rect(a, y, b - a, h); g.clip();
            g.fillStyle = '#1f2933'; g.fillText(s, Math.max(a, 0) + 3, y + h / 2 + 0.5); g.restore();
          }
        }
        i++;
      } else {
        /* the run of narrow intervals starting in this pixel column (a wide one ends it: it is
         * drawn whole by the next round) */
        var px = Math.floor(xa), tn = x0 + (px + 1) / k;
        var j = lowerBound(row.t0, tn, i + 1, row.n), best = i, bd = -1, tot = 0, on = 0;
        for (var q = i; q < j; q++) {
          var d = row.t1[q] - row.t0[q];
          if (q > i && d * k >= 1) { j = q; break; }
          if (d > bd) { bd = d; best = q; }
          if (busy) { tot += d; if (busy(row.ref[q])) on += d; }
        }
        g.fillStyle = color(row.ref[best]);
        g.fillRect(px, y, 1, h);
        if (busy && on > 0 && on < tot && !busy(row.ref[best])) { /* the running share, from the bottom */
          var bh = Math.max(1, Math.round(h * on / tot));
          g.fillStyle = STATE_COLORS.running; g.fillRect(px, y + h - bh, 1, bh);
        }
        i = j;
      }
    }
  }
  function isRunning(r) { return D.states[r * 8 + 1] === ST_RUN; }
  function stateColor(r) { return STATE_COLORS[D.state_names[D.states[r * 8 + 1]]] || '#ccc'; }
  function sliceColor(r) { return hashColor(D.slices[r * 8 + 5]); }
  function sliceLabel(r) { return strOf(D.slices[r * 8 + 5]); }
  function isrLabel(r) { return strOf(D.isrs[r * 9 + 7]); }

  function visibleEvents(ln) {
    if (!ln.ev || !ln.ev.t.length) return [0, 0];
    return [lowerBound(ln.ev.t, view.t0, 0, ln.ev.t.length), lowerBound(ln.ev.t, view.t1 + 1e-9, 0, ln.ev.t.length)];
  }
  function totalVisibleEvents() {
    var n = 0;
    lanes.forEach(function (l) { if (l.ev) { var r = visibleEvents(l); n += r[1] - r[0]; } });
    return n;
  }

  function drawLanes() {
    var W = cvTl.clientWidth, H = Math.min(lanes.total, lanesBox.clientHeight || lanes.total);
    var g = fitCanvas(cvTl, W, H), top = lanesBox.scrollTop;
    g.clearRect(0, 0, W, H);
    g.font = '11px system-ui, sans-serif'; g.textBaseline = 'middle';
    var showSlices = $('show-slices').checked, showTicks = totalVisibleEvents() <= 4000;
    var tk = ticks(W);
    g.strokeStyle = '#eef1f4';
    tk.list.forEach(function (t) { var x = Math.round(xOf(t, W)) + 0.5; g.beginPath(); g.moveTo(x, 0); g.lineTo(x, H); g.stroke(); });
    lanes.forEach(function (ln) {
      var y = ln.y - top;
      if (y + ln.h < 0 || y > H) return;
      if (ln.kind === 'group') { g.fillStyle = '#eef2f6'; g.fillRect(0, y, W, ln.h); return; }
      g.fillStyle = '#edf0f3'; g.fillRect(0, y + ln.h - 1, W, 1);
      if (ln.kind === 'ctx') {
        drawRow(g, ln.states, W, y + 3, 14, stateColor, null, isRunning);
        if (showSlices) ln.slices.forEach(function (row, d) { drawRow(g, row, W, y + 20 + d * 16, 14, sliceColor, sliceLabel); });
      } else if (ln.kind === 'isr') {
        ln.rows.forEach(function (row, d) {
          drawRow(g, row, W, y + 4 + d * 14, 12, function () { return ISR_COLORS[d % ISR_COLORS.length]; }, isrLabel);
        });
      } else if (ln.kind === 'counter') {
        drawCounter(g, ln, W, y);
      }
      if (showTicks && ln.ev) {
        var r = visibleEvents(ln);
        g.fillStyle = 'rgba(31,41,51,0.55)';
        for (var e = r[0]; e < r[1]; e++) { var x = xOf(ln.ev.t[e], W); g.fillRect(Math.round(x), y, 1, 4); }
      }
    });
    drawInversions(g, W, top);
    drawLost(g, W, H);
    if ($('show-flows').checked) drawFlows(g, W, top);
    drawSelection(g, W, top, H);
  }
  function drawCounter(g, ln, W, y) {
    var n = ln.t.length, h = ln.h - 8, base = y + ln.h - 4, mx = Math.max(1, ln.max);
    var i = Math.max(0, lowerBound(ln.t, view.t0, 0, n) - 1);
    g.strokeStyle = '#0e7490'; g.fillStyle = 'rgba(14,116,144,0.15)';
    g.beginPath();
    var xPrev = Math.max(0, xOf(ln.t[i], W)), yPrev = base - ln.v[i] / mx * h;
    g.moveTo(xPrev, base); g.lineTo(xPrev, yPrev);
    for (i = i + 1; i < n && ln.t[i] <= view.t1; i++) {
      var x = xOf(ln.t[i], W), yy = base - ln.v[i] / mx * h;
      g.lineTo(x, yPrev); g.lineTo(x, yy); yPrev = yy;
    }
    var xe = i < n ? W : Math.min(W, xOf(DUR, W));
    g.lineTo(xe, yPrev); g.lineTo(xe, base); g.closePath(); g.fill(); g.stroke();
    g.fillStyle = '#64748b'; g.fillText('max ' + fmtInt(ln.max), 4, y + 8);
  }
  /* Priority inversions (analyses) over the blocked high-priority context's state strip. */
  var INV = [];
  function drawInversions(g, W, top) {
    INV.forEach(function (v) {
      var li = laneOfCtx[v.ctx];
      if (li === undefined || v.t1 < view.t0 || v.t0 > view.t1) return;
      var xa = xOf(v.t0, W), xb = xOf(v.t1, W), y = lanes[li].y - top;
      g.fillStyle = 'rgba(234,88,12,0.35)'; g.fillRect(xa, y + 1, Math.max(2, xb - xa), 18);
      g.fillStyle = '#c2410c'; g.fillRect(xa, y + 1, Math.max(2, xb - xa), 2);
      if (xb - xa > 60) { g.fillStyle = '#7c2d12'; g.fillText('priority inversion', Math.max(xa, 0) + 3, y + 10); }
    });
  }
  function drawLost(g, W, H) {
    var L = D.lost;
    for (var i = 0; i < L.length; i += 4) {
      var xa = xOf(L[i + 1], W), xb = xOf(L[i + 2], W);
      if (xb < -2 || xa > W + 2) continue;
      g.fillStyle = LOST_FILL; g.fillRect(xa, 0, Math.max(2, xb - xa), H);
      g.fillStyle = LOST_EDGE; g.fillRect(Math.round(xb), 0, 1, H);
    }
  }
  function laneMid(ci, top) {
    var li = laneOfCtx[ci];
    if (li === undefined) return null;
    return lanes[li].y - top + 10;
  }
  /* Every visible flow when there are few; else only those of the selected context. */
  function drawFlows(g, W, top) {
    var F = D.flows, n = F.length / 6, vis = [], i;
    for (i = 0; i < n; i++) if (!(F[i * 6 + 4] < view.t0 || F[i * 6 + 3] > view.t1)) vis.push(i);
    var only = null;
    if (vis.length > 80) {
      if (!sel || sel.lane === undefined || lanes[sel.lane].ctx === undefined) return;
      only = lanes[sel.lane].ctx;
    }
    g.strokeStyle = FLOW_COLOR; g.fillStyle = FLOW_COLOR; g.lineWidth = 1;
    var shown = 0;
    for (var q = 0; q < vis.length && shown < 400; q++) {
      i = vis[q];
      if (only !== null && F[i * 6 + 1] !== only && F[i * 6 + 2] !== only) continue;
      var t0 = F[i * 6 + 3], t1 = F[i * 6 + 4];
      var ya = laneMid(F[i * 6 + 1], top), yb = laneMid(F[i * 6 + 2], top);
      if (ya === null || yb === null) continue;
      var xa = xOf(t0, W), xb = xOf(t1, W);
      g.beginPath(); g.moveTo(xa, ya); g.bezierCurveTo(xa + 12, ya, xb - 12, yb, xb, yb); g.stroke();
      g.beginPath(); g.moveTo(xb, yb); g.lineTo(xb - 5, yb - 3); g.lineTo(xb - 5, yb + 3); g.fill();
      shown++;
    }
  }
  function drawSelection(g, W, top, H) {
    if (!sel) return;
    g.strokeStyle = '#111827'; g.lineWidth = 2;
    if (sel.kind === 'event') {
      var x = Math.round(xOf(sel.t0, W)) + 0.5;
      g.strokeStyle = '#2563eb'; g.beginPath(); g.moveTo(x, 0); g.lineTo(x, H); g.stroke();
    } else if (sel.lane !== undefined) {
      var ln = lanes[sel.lane], xa = xOf(sel.t0, W), xb = xOf(sel.t1, W);
      g.strokeRect(xa - 1, ln.y - top + sel.ry - 1, Math.max(2, xb - xa) + 2, sel.rh + 2);
    }
    g.lineWidth = 1;
  }

  var drawPending = false;
  function schedule() {
    if (drawPending) return;
    drawPending = true;
    requestAnimationFrame(function () { drawPending = false; drawRuler(); drawOverview(); drawLanes(); });
  }
  var slowTimer = null;
  function scheduleSlow() {
    if (slowTimer) clearTimeout(slowTimer);
    slowTimer = setTimeout(function () { slowTimer = null; refilter(); drawLoad(); }, 90);
  }

  /* ---------- hit testing and details ---------- */
  function findIn(row, t, slack) {
    if (!row || !row.n) return -1;
    var i = lowerBound(row.m, t - slack, 0, row.n), best = -1, bd = Infinity;
    for (; i < row.n && row.t0[i] <= t + slack; i++) {
      var d = t < row.t0[i] ? row.t0[i] - t : t > row.t1[i] ? t - row.t1[i] : 0;
      if (d <= slack && d < bd) { bd = d; best = i; }
      if (d === 0) break;
    }
    return best;
  }
  function hit(x, yCanvas) {
    var W = cvTl.clientWidth, y = yCanvas + lanesBox.scrollTop, t = view.t0 + x * (view.t1 - view.t0) / W;
    var px = (view.t1 - view.t0) / W, li = -1;
    for (var i = 0; i < lanes.length; i++) if (y >= lanes[i].y && y < lanes[i].y + lanes[i].h) { li = i; break; }
    if (li < 0) return null;
    var ln = lanes[li], ry = y - ln.y, j;
    if (ln.ev && totalVisibleEvents() <= 4000 && ry < 8) {
      var r = visibleEvents(ln), best = -1, bd = 4 * px;
      for (var e = r[0]; e < r[1]; e++) { var d = Math.abs(ln.ev.t[e] - t); if (d <= bd) { bd = d; best = e; } }
      if (best >= 0) return { kind: 'event', ev: ln.ev.idx[best], t0: ln.ev.t[best] };
    }
    for (var v = 0; v < INV.length; v++) {
      if (laneOfCtx[INV[v].ctx] === li && ry >= 1 && ry < 19 && t >= INV[v].t0 && t <= INV[v].t1)
        return { kind: 'inversion', ref: v, lane: li, t0: INV[v].t0, t1: INV[v].t1, ry: 1, rh: 18 };
    }
    if (ln.kind === 'ctx') {
      if (ry < 19) {
        j = findIn(ln.states, t, 2 * px);
        if (j >= 0) return { kind: 'state', ref: ln.states.ref[j], lane: li, t0: ln.states.t0[j], t1: ln.states.t1[j], ry: 3, rh: 14 };
      } else if ($('show-slices').checked) {
        var d2 = Math.floor((ry - 20) / 16), row = ln.slices[d2];
        j = findIn(row, t, 2 * px);
        if (j >= 0) return { kind: 'slice', ref: row.ref[j], lane: li, t0: row.t0[j], t1: row.t1[j], ry: 20 + d2 * 16, rh: 14 };
      }
    } else if (ln.kind === 'isr') {
      var d3 = Math.max(0, Math.floor((ry - 4) / 14)), row2 = ln.rows[d3];
      j = findIn(row2, t, 2 * px);
      if (j >= 0) return { kind: 'isr', ref: row2.ref[j], lane: li, t0: row2.t0[j], t1: row2.t1[j], ry: 4 + d3 * 14, rh: 12 };
    } else if (ln.kind === 'counter') {
      j = lowerBound(ln.t, t + 1e-9, 0, ln.t.length) - 1;
      if (j >= 0) return { kind: 'counter', lane: li, ref: ln.ref[j], t0: ln.t[j], t1: j + 1 < ln.t.length ? ln.t[j + 1] : DUR, ry: 4, rh: ln.h - 8 };
    }
    var L = D.lost;
    for (var q = 0; q < L.length; q += 4) if (t >= L[q + 1] - 2 * px && t <= L[q + 2] + 2 * px) return { kind: 'lost', ref: q / 4, t0: L[q + 1], t1: L[q + 2] };
    return null;
  }
  function describe(h) {
    var rows = [], title = '';
    function add(k, v) { if (v !== '' && v !== null && v !== undefined) rows.push([k, v]); }
    function span(t0, t1) { add('start', fmtT(t0)); add('end', fmtT(t1)); add('duration', fmtDur(t1 - t0)); }
    var b;
    if (h.kind === 'state') {
      b = h.ref * 8; var stn = D.state_names[D.states[b + 1]];
      title = 'State: ' + stn;
      add('context', ctxName(D.states[b])); add('state', stn); span(h.t0, h.t1); add('cpu', D.states[b + 2]);
      if (D.states[b + 5] >= 0) add('blocked on', objName(D.states[b + 5]));
      add('service', strOf(D.states[b + 6]));
      if (D.states[b + 7] & 2) add('note', 'still in this state at the end of the trace');
    } else if (h.kind === 'slice') {
      b = h.ref * 8;
      title = (D.span_cats[D.slices[b + 1]] === 'func' ? 'Function: ' : 'Service call: ') + strOf(D.slices[b + 5]);
      add('name', strOf(D.slices[b + 5])); add('category', D.span_cats[D.slices[b + 1]]); add('context', ctxName(D.slices[b]));
      span(h.t0, h.t1); add('depth', D.slices[b + 4]);
      if (D.slices[b + 6] >= 0) add('object', objName(D.slices[b + 6]));
      if (D.slices[b + 7] & 1) add('note', 'closed by a loss or by an outer exit');
      if (D.slices[b + 7] & 2) add('note', 'still open at the end of the trace');
    } else if (h.kind === 'isr') {
      b = h.ref * 9;
      title = 'ISR: ' + strOf(D.isrs[b + 7]);
      add('name', strOf(D.isrs[b + 7])); if (D.isrs[b + 6] >= 0) add('irq', D.isrs[b + 6]); add('cpu', D.isrs[b]);
      span(h.t0, h.t1); add('nesting depth', D.isrs[b + 3]); add('interrupted', ctxName(D.isrs[b + 5]));
      if (D.isrs[b + 8] & 1) add('note', 'closed by a loss');
      if (D.isrs[b + 8] & 2) add('note', 'still open at the end of the trace');
    } else if (h.kind === 'event') {
      var e = h.ev;
      title = 'Event: ' + strOf(D.ev.n[e]);
      add('#', fmtInt(e)); add('time', fmtT(evT[e])); add('context', ctxName(D.ev.c[e])); add('kind', D.kinds[D.ev.k[e]]);
      add('name', strOf(D.ev.n[e])); add('byte offset', '0x' + D.ev.o[e].toString(16));
      (D.ev.f[e] || '').split('\t').forEach(function (kv) {
        var p = kv.indexOf('=');
        if (p > 0) add(kv.slice(0, p), kv.slice(p + 1));
      });
    } else if (h.kind === 'counter') {
      b = h.ref * 4;
      title = 'Counter: ' + strOf(D.counters[b + 1]);
      add('object', D.counters[b] >= 0 ? objName(D.counters[b]) : 'global'); add('counter', strOf(D.counters[b + 1]));
      add('value', fmtInt(D.counters[b + 3])); add('sampled at', fmtT(h.t0)); add('until', fmtT(h.t1));
    } else if (h.kind === 'inversion') {
      var iv = INV[h.ref].r;
      title = 'Priority inversion';
      add('blocked (high)', ctxLabel(iv.high)); add('holder (low)', ctxLabel(iv.low)); add('ran (middle)', ctxLabel(iv.middle));
      add('mutex', iv.mutex || ''); span(h.t0, h.t1);
      if (iv.middle_time !== undefined) add('middle ran for', fmtDur(iv.middle_time));
    } else if (h.kind === 'lost') {
      b = h.ref * 4;
      title = 'Lost data';
      add('records lost', D.lost[b + 3] >= 0 ? fmtInt(D.lost[b + 3]) : 'unknown (the format does not say)');
      add('cpu', D.lost[b]); span(h.t0, h.t1);
    }
    return { title: title, rows: rows };
  }
  function showDetails(h) {
    var box = $('details');
    box.textContent = '';
    if (!h) { box.appendChild(el('p', 'meta', 'Nothing there.')); return; }
    var d = describe(h);
    box.dataset.kind = h.kind;
    box.appendChild(el('h3', null, d.title));
    var tb = el('table');
    d.rows.forEach(function (r) { var tr = el('tr'); tr.appendChild(el('th', null, r[0])); tr.appendChild(el('td', null, r[1])); tb.appendChild(tr); });
    box.appendChild(tb);
  }
  function select(h) {
    sel = h;
    showDetails(h);
    schedule();
    if (h && h.kind === 'event') markListRow(h.ev);
  }

  /* ---------- mouse and keyboard ---------- */
  var drag = null, tip = $('tip');
  cvTl.addEventListener('wheel', function (e) {
    e.preventDefault();
    var W = cvTl.clientWidth, r = cvTl.getBoundingClientRect(), frac = (e.clientX - r.left) / W;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan((e.shiftKey ? e.deltaY : e.deltaX) / W);
    else zoomAt(Math.exp(e.deltaY * 0.0022), frac);
  }, { passive: false });
  cvTl.addEventListener('mousedown', function (e) {
    if (e.button !== 0) return;
    drag = { x: e.clientX, t0: view.t0, t1: view.t1, moved: false };
    lanesBox.focus({ preventScroll: true });
    e.preventDefault();
  });
  window.addEventListener('mousemove', function (e) {
    if (drag) {
      var dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (drag.moved) {
        var dt = -dx * (drag.t1 - drag.t0) / cvTl.clientWidth;
        setView(drag.t0 + dt, drag.t1 + dt);
      }
      return;
    }
    var r = cvTl.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) {
      tip.style.display = 'none'; hoverX = -1; return;
    }
    hoverX = (e.clientX - r.left) / r.width;
    var h = hit(e.clientX - r.left, e.clientY - r.top);
    if (!h) { tip.style.display = 'none'; return; }
    var d = describe(h), lines = [d.title];
    d.rows.forEach(function (row) { if (row[0] === 'duration' || row[0] === 'context' || row[0] === 'time') lines.push(row[0] + ': ' + row[1]); });
    tip.textContent = lines.join('\n');
    tip.style.display = 'block'; tip.style.left = (e.clientX + 14) + 'px'; tip.style.top = (e.clientY + 14) + 'px';
  });
  window.addEventListener('mouseup', function (e) {
    if (!drag) return;
    var moved = drag.moved;
    drag = null;
    if (!moved) {
      var r = cvTl.getBoundingClientRect();
      select(hit(e.clientX - r.left, e.clientY - r.top));
    }
  });
  lanesBox.addEventListener('scroll', schedule);
  function ovJump(e) {
    var r = cvOv.getBoundingClientRect();
    centreOn((e.clientX - r.left) / r.width * DUR);
  }
  var ovDrag = false;
  cvOv.addEventListener('mousedown', function (e) { ovDrag = true; ovJump(e); e.preventDefault(); });
  window.addEventListener('mousemove', function (e) { if (ovDrag) ovJump(e); });
  window.addEventListener('mouseup', function () { ovDrag = false; });
  document.addEventListener('keydown', function (e) {
    var tag = (e.target && e.target.tagName) || '';
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.ctrlKey || e.metaKey || e.altKey) return;
    var frac = hoverX >= 0 ? hoverX : 0.5, k = e.key.toLowerCase();
    if (k === 'w') zoomAt(0.8, frac);
    else if (k === 's') zoomAt(1.25, frac);
    else if (k === 'a') pan(-0.15);
    else if (k === 'd') pan(0.15);
    else if (k === 'f' || k === '0') fit();
    else return;
    e.preventDefault();
  });
  $('zoom-in').addEventListener('click', function () { zoomAt(0.5, 0.5); });
  $('zoom-out').addEventListener('click', function () { zoomAt(2, 0.5); });
  $('zoom-fit').addEventListener('click', fit);
  $('show-flows').addEventListener('change', schedule);
  $('show-slices').addEventListener('change', schedule);
  window.addEventListener('resize', function () { ovLoad = null; schedule(); scheduleSlow(); });

  /* ---------- event list (virtualised) ---------- */
  var ROW_H = 20, flt = new Int32Array(0), listSel = -1;
  var fCtx = $('f-ctx'), fKind = $('f-kind'), fName = $('f-name'), fVis = $('f-visible'), evList = $('ev-list');
  CTX.forEach(function (c, i) { if (ctxEvents[i]) { var o = el('option', null, c.name + ' (' + c.class + ')'); o.value = i; fCtx.appendChild(o); } });
  (function () {
    var seen = {};
    for (var i = 0; i < nEv; i++) seen[D.ev.k[i]] = 1;
    Object.keys(seen).map(Number).sort(function (a, b) { return a - b; }).forEach(function (k) {
      var o = el('option', null, D.kinds[k]); o.value = k; fKind.appendChild(o);
    });
  })();
  var nameLower = S.map(function (s) { return s.toLowerCase(); });
  function refilter() {
    var c = fCtx.value === '' ? null : Number(fCtx.value), k = fKind.value === '' ? null : Number(fKind.value);
    var q = fName.value.trim().toLowerCase(), vis = fVis.checked, t0 = view.t0, t1 = view.t1;
    var out = new Int32Array(nEv), n = 0, nameOk = null;
    if (q) { nameOk = new Uint8Array(S.length); for (var s = 0; s < S.length; s++) nameOk[s] = nameLower[s].indexOf(q) >= 0 ? 1 : 0; }
    for (var i = 0; i < nEv; i++) {
      if (c !== null && D.ev.c[i] !== c) continue;
      if (k !== null && D.ev.k[i] !== k) continue;
      if (nameOk && !nameOk[D.ev.n[i]]) continue;
      if (vis && (evT[i] < t0 || evT[i] > t1)) continue;
      out[n++] = i;
    }
    flt = out.subarray(0, n);
    var cnt = $('list-count');
    cnt.textContent = fmtInt(n) + (n === 1 ? ' event' : ' events') + (vis ? ' in the visible range' : '');
    cnt.dataset.count = n;
    $('ev-spacer').style.height = (n * ROW_H) + 'px';
    renderRows();
  }
  function renderRows() {
    var box = $('ev-rows'), top = evList.scrollTop, hgt = evList.clientHeight || 320;
    var a = Math.max(0, Math.floor(top / ROW_H) - 5), b = Math.min(flt.length, Math.ceil((top + hgt) / ROW_H) + 5);
    box.style.top = (a * ROW_H) + 'px';
    box.textContent = '';
    for (var r = a; r < b; r++) {
      var i = flt[r], row = el('div', 'ev-row' + (i === listSel ? ' sel' : ''));
      row.dataset.ev = i;
      row.appendChild(el('span', null, fmtT(evT[i])));
      row.appendChild(el('span', null, ctxName(D.ev.c[i])));
      row.appendChild(el('span', 'k', D.kinds[D.ev.k[i]]));
      row.appendChild(el('span', null, strOf(D.ev.n[i])));
      row.appendChild(el('span', 'k', (D.ev.f[i] || '').split('\t').join('  ')));
      box.appendChild(row);
    }
  }
  function markListRow(i) {
    listSel = i;
    var r = lowerBound(flt, i, 0, flt.length); /* flt is in trace order */
    if (r < flt.length && flt[r] === i) {
      var y = r * ROW_H;
      if (y < evList.scrollTop || y > evList.scrollTop + evList.clientHeight - ROW_H) evList.scrollTop = y - evList.clientHeight / 2;
    }
    renderRows();
  }
  evList.addEventListener('scroll', renderRows);
  $('ev-rows').addEventListener('click', function (e) {
    var row = e.target.closest('.ev-row');
    if (!row) return;
    var i = Number(row.dataset.ev);
    listSel = i;
    sel = { kind: 'event', ev: i, t0: evT[i] };
    showDetails(sel);
    centreOn(evT[i]);
  });
  [fCtx, fKind, fVis].forEach(function (x) { x.addEventListener('change', refilter); });
  fName.addEventListener('input', refilter);

  /* ---------- CPU load ---------- */
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

  /* ---------- tables ---------- */
  function sortable(tb) {
    var ths = tb.querySelectorAll('th');
    ths.forEach(function (th, ci) {
      th.addEventListener('click', function () {
        var body = tb.tBodies[0], rows = Array.prototype.slice.call(body.rows), dir = th.dataset.dir === '1' ? -1 : 1;
        th.dataset.dir = dir === 1 ? '1' : '0';
        rows.sort(function (x, y) {
          var a = x.cells[ci].dataset.v !== undefined ? x.cells[ci].dataset.v : x.cells[ci].textContent;
          var c = y.cells[ci].dataset.v !== undefined ? y.cells[ci].dataset.v : y.cells[ci].textContent;
          var na = parseFloat(a), nc = parseFloat(c);
          if (!isNaN(na) && !isNaN(nc)) return (na - nc) * dir;
          return a < c ? -dir : a > c ? dir : 0;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  /* cols: [{h: header, v: fn(row) -> value, f: fn(value) -> text}] */
  function table(rows, cols, onClick) {
    var tb = el('table', 'grid'), th = el('thead'), tr = el('tr');
    cols.forEach(function (c) {
      var sample = rows.length ? c.v(rows[0]) : 0;
      tr.appendChild(el('th', typeof sample === 'number' || c.t ? null : 's', c.h));
    });
    th.appendChild(tr); tb.appendChild(th);
    var body = el('tbody');
    rows.forEach(function (r) {
      var row = el('tr', onClick ? 'link' : null);
      cols.forEach(function (c) {
        var v = c.v(r), td = el('td', c.t ? 't' : typeof v === 'number' ? null : 's', c.f ? c.f(v, r) : v);
        if (typeof v === 'number') td.dataset.v = v;
        row.appendChild(td);
      });
      if (onClick) row.addEventListener('click', function () { onClick(r); });
      body.appendChild(row);
    });
    tb.appendChild(body);
    sortable(tb);
    var wrap = el('div', 'scroll');
    wrap.appendChild(tb);
    return wrap;
  }
  function goToLane(ci) {
    var li = laneOfCtx[ci];
    if (li === undefined) return;
    $('timeline-panel').scrollIntoView({ block: 'start' });
    lanesBox.scrollTop = Math.max(0, lanes[li].y - 40);
    schedule();
  }
  function contextsTable() {
    var box = $('contexts'), rows = CTX.map(function (c, i) { return { c: c, i: i }; });
    rows.sort(function (a, b) { return b.c.run - a.c.run; });
    var dt = function (v) { return fmtDur(v); };
    box.appendChild(table(rows, [
      { h: 'context', v: function (r) { return r.c.name; } },
      { h: 'class', v: function (r) { return r.c.class; } },
      { h: 'id', v: function (r) { return r.c.id || ''; } },
      { h: 'priority', v: function (r) { return r.c.prio === null ? '' : r.c.prio; } },
      { h: 'events', v: function (r) { return r.c.events; }, f: fmtInt },
      { h: 'running', v: function (r) { return r.c.run; }, f: dt, t: 1 },
      { h: 'in ISRs while running', v: function (r) { return r.c.isr; }, f: dt, t: 1 },
      { h: 'CPU time', v: function (r) { return r.c.run - r.c.isr; }, f: dt, t: 1 },
      { h: 'load', v: function (r) { return (r.c.run - r.c.isr) * 100 / (DUR * D.ncpus); }, f: function (v) { return v.toFixed(2) + '%'; } },
      { h: 'switched in', v: function (r) { return r.c.switches; }, f: fmtInt }
    ], function (r) { goToLane(r.i); }));
    box.appendChild(el('p', 'meta', 'Idle (no running context, all CPUs): ' + fmtDur(D.idle_time) + ' \u00b7 in ISRs: ' +
      fmtDur(D.isr_time) + ' \u00b7 times in ' + (NS ? 'real time (ns)' : 'ticks') + '. Click a row to show its lane.'));
  }

  /* ---------- analyses ---------- */
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

  /* ---------- header, notes, labels, legend ---------- */
  function header() {
    var f = $('facts');
    function fact(k, v, bad) { var s = el('span', bad ? 'bad' : null); s.appendChild(document.createTextNode(k + ' ')); s.appendChild(el('b', null, v)); f.appendChild(s); }
    fact('file', D.file || '');
    fact('format', D.format || '');
    fact('events', fmtInt(D.events));
    fact('duration', fmtDur(D.duration));
    fact('contexts', fmtInt(CTX.length));
    if (NS) fact('clock', fmtInt(D.clock_hz) + ' Hz' + (D.clock_source ? ' (' + D.clock_source + ')' : ''));
    else fact('clock', 'unknown: times in ticks', true);
    if (D.lost_events) fact('lost', fmtInt(D.lost_events) + ' record(s), count ' + fmtInt(D.lost_count), true);
    if (D.errors) fact('decode errors', fmtInt(D.errors), true);
    var notes = $('notes');
    if (!NS) notes.appendChild(el('div', null, 'The clock rate of this trace is unknown, so every time on this page is in ticks. Give evtrace report --clock-hz HZ for real time.'));
    if (D.listed < D.events) notes.appendChild(el('div', null, 'The event list holds the first ' + fmtInt(D.listed) + ' of ' + fmtInt(D.events) +
      ' events (limit ' + fmtInt(D.list_limit) + ' per report); the timeline, the CPU load and the analyses include all of them.'));
    if (D.lost_events) notes.appendChild(el('div', null, fmtInt(D.lost_events) + ' lost-data record(s): the ranges are marked in red on the timeline and the ruler.'));
    var u = D.untracked, un = [];
    Object.keys(u).forEach(function (k) { if (u[k]) un.push(k.replace(/_/g, ' ') + ' ' + fmtInt(u[k])); });
    if (un.length) notes.appendChild(el('div', 'info', 'Not tracked by the timeline (counted): ' + un.join(', ') + '.'));
    $('unit-label').textContent = NS ? 'time since start' : 'time (ticks)';
    $('list-note').textContent = 'Lists up to ' + fmtInt(D.list_limit) + ' events per report (' + fmtInt(D.listed) + ' here). Click a row to centre the timeline on it.';
    $('footer').textContent = 'Generated by evtrace report. Times are relative to the first event (' + (NS ? 'ns' : 'ticks') + ' ' + fmtInt(D.origin) + ' in the trace).';
  }
  function labels() {
    var box = $('labels');
    box.style.height = lanes.total + 'px';
    $('lanes-inner').style.height = lanes.total + 'px';
    lanes.forEach(function (ln, i) {
      var d = el('div', 'lane-label' + (ln.kind === 'group' ? ' group' : ''), ln.label);
      d.style.top = ln.y + 'px'; d.style.height = ln.h + 'px'; d.style.lineHeight = (ln.kind === 'group' ? ln.h : 20) + 'px';
      d.dataset.lane = i;
      if (ln.ctx !== undefined && ln.ctx >= 0) d.dataset.ctx = ln.ctx;
      if (ln.sub) d.appendChild(el('small', null, ln.sub));
      d.title = ln.label + (ln.sub ? ' (' + ln.sub + ')' : '');
      box.appendChild(d);
    });
  }
  function legend() {
    var lg = $('legend');
    function item(c, t) { var s = el('span'), i = el('i'); i.style.background = c; s.appendChild(i); s.appendChild(document.createTextNode(t)); lg.appendChild(s); }
    ['running', 'ready', 'blocked', 'suspended', 'terminated', 'unknown'].forEach(function (s) { item(STATE_COLORS[s], s); });
    item(ISR_COLORS[0], 'ISR'); item(hashColor(7), 'service / function slice (colour by name)');
    item('#0e7490', 'object counter'); item(FLOW_COLOR, 'flow (wake-up, message)'); item(LOST_EDGE, 'lost data');
    if (AN && AN.inversions && AN.inversions.list && AN.inversions.list.length) item('rgba(234,88,12,0.6)', 'priority inversion');
  }

  header();
  legend();
  labels();
  contextsTable();
  analyses();
  inversionMarks();
  fit();
  requestAnimationFrame(function () {
    drawRuler(); drawOverview(); drawLanes(); refilter(); drawLoad();
    document.body.dataset.ready = '1';
  });
})();

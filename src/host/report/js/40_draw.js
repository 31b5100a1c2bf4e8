/* Drawing of the timeline: ruler (with lost counts), overview, lanes (states with the running
 * share of merged pixel columns, slices, ISRs, counters, event marks), priority inversions, lost
 * bands, flows and the selection; one redraw per animation frame, the list and load chart
 * refreshed after the view settles. Cost per frame is bounded by the pixel columns. */
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
    } else if (LANE_DRAW[ln.kind]) { /* lanes other parts add (25_user.js) */
      LANE_DRAW[ln.kind](g, ln, W, y);
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

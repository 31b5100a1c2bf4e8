/* User lanes (report_user.c, docs/report.md "User lanes"): one lane per printf/marker channel
 * (marks with their text), per value channel (a step plot), per interval channel (slices, one
 * row per overlap depth) and per state machine (a strip of named states: user machines and RKH's),
 * under the group "User channels"; printf text leads its row in the event list. Drawn through
 * LANE_DRAW (40_draw.js calls it for lane kinds it does not draw itself). */
var LANE_DRAW = {}, U = RAW.user || { names: [''], marks: [], values: [], ivs: [], sms: [] };
function uName(id) { return id > 0 && id < U.names.length ? U.names[id] : ''; }
(function userLanes(sh) {
  var i, k, mk = U.marks, vs = U.values, iv = U.ivs, sm = U.sms;
  if (sh) {
    for (i = 0; i < mk.length; i += 4) mk[i + 1] += sh;
    for (i = 0; i < vs.length; i += 3) vs[i + 1] += sh;
    for (i = 0; i < iv.length; i += 5) { iv[i + 1] += sh; iv[i + 2] += sh; }
    for (i = 0; i < sm.length; i += 6) { sm[i + 3] += sh; sm[i + 4] += sh; }
  }
  var chans = {}, order = [];
  function chan(id) {
    if (!chans[id]) { chans[id] = { marks: [], vals: [], ivs: [] }; order.push(id); }
    return chans[id];
  }
  for (i = 0; i < mk.length; i += 4) {
    chan(mk[i]).marks.push(i / 4);
    var e = mk[i + 2];
    if (mk[i + 3] !== null && e >= 0 && e < nEv) D.ev.f[e] = mk[i + 3] + '\t' + (D.ev.f[e] || '');
  }
  for (i = 0; i < vs.length; i += 3) chan(vs[i]).vals.push(i / 3);
  for (i = 0; i < iv.length; i += 5) chan(iv[i]).ivs.push([iv[i + 1], iv[i + 2], i / 5]);
  var machines = {}, morder = [];
  for (i = 0; i < sm.length; i += 6) {
    k = sm[i];
    if (!machines[k]) { machines[k] = []; morder.push(k); }
    machines[k].push([sm[i + 3], sm[i + 4], i / 6]);
  }
  if (!order.length && !morder.length) return;
  lanes.push({ kind: 'group', label: 'User channels', h: 18 });
  order.forEach(function (id) {
    var c = chans[id], name = uName(id);
    if (c.marks.length) {
      var n = c.marks.length, t = new Float64Array(n), idx = new Int32Array(n), ref = new Int32Array(n);
      c.marks.sort(function (a, b) { return mk[a * 4 + 1] - mk[b * 4 + 1]; });
      for (var j = 0; j < n; j++) { ref[j] = c.marks[j]; t[j] = mk[ref[j] * 4 + 1]; idx[j] = mk[ref[j] * 4 + 2]; }
      var has = [];
      for (j = 0; j < n; j++) if (idx[j] >= 0) has.push(j);
      lanes.push({ kind: 'umarks', label: name, sub: 'text', t: t, ref: ref, h: 24,
        ev: { idx: Int32Array.from(has.map(function (q) { return idx[q]; })), t: Float64Array.from(has.map(function (q) { return t[q]; })) } });
    }
    if (c.vals.length) {
      var m = c.vals.length, vt = new Float64Array(m), vv = new Float64Array(m), lo = Infinity, hi = -Infinity;
      c.vals.sort(function (a, b) { return vs[a * 3 + 1] - vs[b * 3 + 1]; });
      for (var q = 0; q < m; q++) { vt[q] = vs[c.vals[q] * 3 + 1]; vv[q] = vs[c.vals[q] * 3 + 2]; lo = Math.min(lo, vv[q]); hi = Math.max(hi, vv[q]); }
      lanes.push({ kind: 'uvalue', label: name, sub: 'value', t: vt, v: vv, lo: Math.min(lo, 0), hi: Math.max(hi, 0), h: 40 });
    }
    if (c.ivs.length) {
      /* one row per overlap depth (first row whose last interval ended) */
      c.ivs.sort(function (a, b) { return a[0] - b[0]; });
      var rows = [], ends = [];
      c.ivs.forEach(function (x) {
        var d = 0;
        while (d < ends.length && ends[d] > x[0]) d++;
        if (d > 5) d = 5;
        ends[d] = x[1]; (rows[d] = rows[d] || []).push(x);
      });
      lanes.push({ kind: 'uivs', label: name, sub: 'intervals', rows: rows.map(function (r) { return makeRow(r || []); }),
        h: Math.max(1, rows.length) * 16 + 6 });
    }
  });
  morder.forEach(function (k2) {
    lanes.push({ kind: 'usm', label: uName(k2), sub: 'state machine', row: makeRow(machines[k2]), h: 22 });
  });
  var y = 0;
  lanes.forEach(function (l) { l.y = y; y += l.h; });
  lanes.total = y;
})(D.shift);
var USER_MARK = '#7c3aed', USER_VALUE = '#0f766e', USER_IV = '#d97706';
LANE_DRAW.umarks = function (g, ln, W, y) {
  var n = ln.t.length, i = Math.max(0, lowerBound(ln.t, view.t0, 0, n)), lastX = -1e9;
  g.fillStyle = USER_MARK;
  for (; i < n && ln.t[i] <= view.t1; i++) {
    var x = xOf(ln.t[i], W);
    g.fillRect(Math.round(x) - 1, y + 6, 3, 14);
    var s = U.marks[ln.ref[i] * 4 + 3];
    if (s !== null && x - lastX > 60) {
      var nx = i + 1 < n ? xOf(ln.t[i + 1], W) : W;
      g.save(); g.beginPath(); g.rect(x + 3, y, Math.max(0, nx - x - 4), ln.h); g.clip();
      g.fillStyle = '#1f2933'; g.fillText(s, x + 4, y + 13); g.restore(); g.fillStyle = USER_MARK;
      lastX = x;
    }
  }
};
LANE_DRAW.uvalue = function (g, ln, W, y) {
  var n = ln.t.length, h = ln.h - 10, span = Math.max(1, ln.hi - ln.lo), base = y + ln.h - 4;
  function yOf(v) { return base - (v - ln.lo) / span * h; }
  var i = Math.max(0, lowerBound(ln.t, view.t0, 0, n) - 1);
  g.strokeStyle = USER_VALUE; g.lineWidth = 1.5;
  g.beginPath();
  var yp = yOf(ln.v[i]);
  g.moveTo(Math.max(0, xOf(ln.t[i], W)), yp);
  for (i = i + 1; i < n && ln.t[i] <= view.t1; i++) { var x = xOf(ln.t[i], W), yy = yOf(ln.v[i]); g.lineTo(x, yp); g.lineTo(x, yy); yp = yy; }
  g.lineTo(i < n ? W : Math.min(W, xOf(DUR, W)), yp);
  g.stroke(); g.lineWidth = 1;
  g.fillStyle = '#64748b'; g.fillText(fmtInt(ln.lo) + ' .. ' + fmtInt(ln.hi), 4, y + 8);
};
function uIvLabel(r) { return uName(U.ivs[r * 5]) + ' #' + U.ivs[r * 5 + 3]; }
LANE_DRAW.uivs = function (g, ln, W, y) {
  ln.rows.forEach(function (row, d) { drawRow(g, row, W, y + 3 + d * 16, 14, function () { return USER_IV; }, uIvLabel); });
};
function uSmColor(r) { return hashColor(U.sms[r * 6 + 1] * 7 + U.sms[r * 6 + 2] + 3); }
function uSmLabel(r) { return uName(U.sms[r * 6 + 1]) || ('state ' + U.sms[r * 6 + 2]); }
LANE_DRAW.usm = function (g, ln, W, y) { drawRow(g, ln.row, W, y + 4, 14, uSmColor, uSmLabel); };

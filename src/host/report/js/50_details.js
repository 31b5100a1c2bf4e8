/* Hit testing of a point on the timeline (event mark, state, slice, ISR, counter, inversion,
 * lost band) and the details panel of what was hit or selected. */
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
  /* the absolute time beside the relative one: the value SQL, ClickHouse and the analyses use */
  function abs(t) { return fmtInt(t + D.origin) + (NS ? ' ns' : ' ticks'); }
  function span(t0, t1) {
    add('start', fmtT(t0)); add('end', fmtT(t1)); add('duration', fmtDur(t1 - t0));
    add('start (trace time)', abs(t0)); add('end (trace time)', abs(t1));
  }
  var b;
  if (h.kind === 'state') {
    b = h.ref * 8; var stn = D.state_names[D.states[b + 1]];
    title = 'State: ' + stn;
    add('context', ctxName(D.states[b])); add('state', stn); span(h.t0, h.t1); add('cpu', D.states[b + 2]);
    if (D.states[b + 5] >= 0) add('blocked on', objName(D.states[b + 5]));
    add('service', strOf(D.states[b + 6]));
    stateMeaning(D.states[b], h.t0, h.t1, add);
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
    add('#', fmtInt(e)); add('time', fmtT(evT[e])); add('trace time', abs(evT[e])); add('context', ctxName(D.ev.c[e])); add('kind', D.kinds[D.ev.k[e]]);
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

/* Who woke a context at the end of its state [t0, t1] and its priority then (the timeline's
 * "wakes" and "prios": from the trace's meaning, docs/report.md). */
function stateMeaning(ci, t0, t1, add) {
  var W = D.wakes || [], P = D.prios || [], i, pr = null, ch = [];
  for (i = 0; i < W.length; i += 6)
    if (W[i] === ci && W[i + 2] === t0) {
      add('woken by', W[i + 1] >= 0 ? ctxName(W[i + 1]) : (W[i + 4] ? 'an interrupt' : 'unknown'));
      if (W[i + 3] >= 0) add('woken through', objName(W[i + 3]));
      if (W[i + 5] > 0) add('wait ended', D.wake_causes[W[i + 5]]); /* 0: the trace does not say */
    }
  for (i = 0; i < P.length; i += 5) {
    if (P[i] !== ci || P[i + 1] > t1) continue;
    if (P[i + 1] <= t0) pr = P[i + 2];
    else ch.push(P[i + 2] + ' (' + (D.prio_whys[P[i + 3]] || '') + ')');
  }
  if (pr !== null) add('priority', pr);
  if (ch.length) add('priority changes', ch.join(', '));
}

/* Sortable tables built from rows and column descriptions, and the contexts table. */
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
    /* CPU time as stats and SQLite: 0 when the ISR time is larger (an ISR's whole time goes to the
       context it interrupted, which a thread event inside it can switch out) */
    { h: 'CPU time', v: function (r) { return Math.max(0, r.c.run - r.c.isr); }, f: dt, t: 1 },
    { h: 'load', v: function (r) { return Math.max(0, r.c.run - r.c.isr) * 100 / (DUR * D.ncpus); }, f: function (v) { return v.toFixed(2) + '%'; } },
    { h: 'switched in', v: function (r) { return r.c.switches; }, f: fmtInt }
  ], function (r) { goToLane(r.i); }));
  /* the kernel's idle tasks (FreeRTOS's IDLE): their running is idle time too (docs/analyses.md) */
  var idleTasks = CTX.filter(function (c) { return c.idle_task; }).map(function (c) { return c.name; });
  box.appendChild(el('p', 'meta', 'Idle (no running context' + (idleTasks.length ? ', or the kernel\'s idle task ' +
    idleTasks.join(', ') + ' running' : '') + ', all CPUs): ' + fmtDur(D.idle_time) + ' \u00b7 in ISRs: ' +
    fmtDur(D.isr_time) + ' \u00b7 times in ' + (NS ? 'real time (ns)' : 'ticks') + '. Click a row to show its lane.'));
}

/* The event list: filters by context, kind, name and the visible range; virtualised rows (only
 * those on screen exist); a row click centres the timeline on its event. */
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

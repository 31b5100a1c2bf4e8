/* Mouse and keyboard: wheel zoom around the pointer, Shift+wheel and drag to pan, click to
 * select, hover tips, overview jumps, W/S/A/D/F keys and the toolbar buttons. */
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

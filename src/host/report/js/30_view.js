/* The visible time range (zoom, pan, fit, centre), canvas sizing for the device pixel ratio,
 * and the ruler's tick steps and labels. */
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

/* The page's data: the data block (#evt-data, written by report_data.c; layout in
 * docs/report.md) with its times moved to the trace's earliest one, the analyses block
 * (#evt-analyses), and the constants every other part uses (unit, duration, colours).
 * The js/ files are concatenated in name order into one function scope (report.html). */
var $ = function (id) { return document.getElementById(id); };
var RAW = JSON.parse($('evt-data').textContent), D = RAW.meta;
['states', 'isrs', 'slices', 'counters', 'flows', 'lost', 'wakes', 'prios', 'ev'].forEach(function (k) { D[k] = RAW[k]; });
/* times: relative to the first event in the file, shifted here to the trace's earliest time */
(function shift(sh) {
  function add(a, stride, offs) { for (var i = 0; i < a.length; i += stride) offs.forEach(function (o) { a[i + o] += sh; }); }
  if (!sh) return;
  add(D.states, 8, [3]); add(D.isrs, 9, [1]); add(D.slices, 8, [2]); add(D.counters, 4, [2]);
  add(D.flows, 6, [3, 4]); add(D.lost, 4, [1, 2]); add(D.wakes, 6, [2]); add(D.prios, 5, [1]);
  if (D.ev.t.length) D.ev.t[0] += sh;
})(D.shift);
var AN = null, anError = null;
try { AN = JSON.parse($('evt-analyses').textContent); } catch (e) { anError = String(e); }
var S = D.strings, NS = D.unit === 'ns', DUR = Math.max(D.duration, 1);
var CTX = D.ctx, OBJ = D.obj;
var ST_RUN = D.state_names.indexOf('running');
var STATE_COLORS = { running: '#2f9e5b', ready: '#f2b233', blocked: '#9aa9bb', suspended: '#a68af0',
  terminated: '#d9dde3', unknown: '#eef1f4', active: '#7fb3d5' };
var ISR_COLORS = ['#d64545', '#e0782f', '#b8329a', '#8d3fd1'];
var LOST_FILL = 'rgba(220,38,38,0.22)', LOST_EDGE = '#dc2626', FLOW_COLOR = 'rgba(37,99,235,0.6)';
var LOAD_COLORS = ['#2f9e5b', '#2563eb', '#f2b233', '#8d3fd1', '#0e9fb5', '#e0782f', '#6b8e23', '#c2417a',
  '#5b6b7f', '#a0522d'];

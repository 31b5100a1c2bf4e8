/* Live mode (`evtrace live`): when the page was served with its live script (src/host/live/
 * live.js), hand that script what it needs to keep the visible range across new data: the view,
 * setView, the duration and the trace's origin. In an offline report there is no live script and
 * this does nothing. */
if (window.evtLiveHook) {
  window.evtLiveHook({ getView: function () { return { t0: view.t0, t1: view.t1 }; }, setView: setView,
    dur: DUR, origin: D.origin, ns: NS, events: D.events, lanesBox: lanesBox,
    contexts: CTX.map(function (c) { return c.name; }) });
}

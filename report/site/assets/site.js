// Draws every chart of a page as SVG from the JSON in its data-series
// attribute: one line per host over commit order, a dot per run (its
// median), a dashed line and a label at each change point. When done it
// sets body's data-charts-drawn to the number of charts drawn, which the
// site's browser test reads.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(v) {
    var a = Math.abs(v);
    if (a >= 1e9) return (v / 1e9).toPrecision(3) + "G";
    if (a >= 1e6) return (v / 1e6).toPrecision(3) + "M";
    if (a >= 1e3) return (v / 1e3).toPrecision(3) + "k";
    return v.toPrecision(3);
  }
  function draw(div) {
    var data = JSON.parse(div.getAttribute("data-series"));
    var W = 760, H = 240, L = 60, R = 20, T = 20, B = 30;
    var svg = el("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" }, div);
    var xs = data.commits.length, lo = Infinity, hi = -Infinity;
    data.hosts.forEach(function (h) {
      (h.points || []).forEach(function (p) { lo = Math.min(lo, p.y); hi = Math.max(hi, p.y); });
    });
    if (!(hi > lo)) { hi = lo + Math.abs(lo || 1) * 0.05; lo = lo - Math.abs(lo || 1) * 0.05; }
    var pad = (hi - lo) * 0.08; lo -= pad; hi += pad;
    function X(i) { return xs < 2 ? L + (W - L - R) / 2 : L + i * (W - L - R) / (xs - 1); }
    function Y(v) { return T + (hi - v) * (H - T - B) / (hi - lo); }
    el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#999" }, svg);
    el("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#999" }, svg);
    [lo + pad, (lo + hi) / 2, hi - pad].forEach(function (v) {
      el("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end" }, svg).textContent = fmt(v);
    });
    el("text", { x: L, y: H - 8 }, svg).textContent = data.commits[0];
    el("text", { x: W - R, y: H - 8, "text-anchor": "end" }, svg).textContent = data.commits[xs - 1];
    data.hosts.forEach(function (h, k) {
      var g = el("g", { "class": "host-" + (k % 4) }, svg);
      var pts = h.points.map(function (p) { return X(p.x) + "," + Y(p.y); });
      el("polyline", { points: pts.join(" ") }, g);
      h.points.forEach(function (p) {
        var c = el("circle", { cx: X(p.x), cy: Y(p.y), r: 3 }, g);
        el("title", {}, c).textContent = p.run + " (" + p.commit + "): " + fmt(p.y);
      });
      (h.changes || []).forEach(function (c) {
        var x = (X(c.from) + X(c.to)) / 2;
        el("line", { x1: x, y1: T, x2: x, y2: H - B, "class": "change" }, svg);
        var right = x > W / 2;
        el("text", { x: right ? x - 3 : x + 3, y: T + 10 + 12 * (k % 3), "text-anchor": right ? "end" : "start" }, svg).textContent = c.label;
      });
    });
  }
  function drawAll() {
    var charts = document.querySelectorAll("div.chart[data-series]");
    for (var i = 0; i < charts.length; i++) draw(charts[i]);
    document.body.setAttribute("data-charts-drawn", String(charts.length));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawAll);
  else drawAll();
})();

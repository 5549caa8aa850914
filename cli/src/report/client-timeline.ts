/**
 * The part of the report's script that draws the timeline: `timelineView(index, h)` lays out the
 * lanes, draws the calls in view (zoom with the buttons or Ctrl+wheel; a view too dense to draw
 * call by call is drawn as density, a click on which zooms in), keeps the selected call selected
 * across redraws, and `reveal(i)` brings a call into view, selected and highlighted (the error
 * list's links). `h` gives it `el`, `ms`, `spanName` and `onSpan(i)`, called when a call is
 * clicked or revealed. Inlined into `REPORT_SCRIPT`.
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw on purpose, so a backslash later added to the inlined browser code reaches the page as written
export const TIMELINE_SCRIPT = String.raw`
  function timelineView(index, h) {
    var MAX_BUTTONS = 1500;
    var total = Math.max(1, index.endTs - index.startTs);
    var zoom = 1;
    var spans = index.spans;
    var timeline = document.getElementById("timeline");
    var inner = document.getElementById("timeline-inner");
    var axis = document.getElementById("axis");
    var selected = -1;
    var flashing = -1;
    var lanes = [];
    for (var l = 0; l < index.lanes; l++) {
      var lane = h.el("div", "lane");
      lane.setAttribute("data-lane", String(l));
      lanes.push(lane);
      inner.appendChild(lane);
    }
    function place(node, from, length) {
      node.style.left = (from / total * 100) + "%";
      node.style.width = (Math.max(length, 0) / total * 100) + "%";
    }
    function inView() {
      var width = inner.clientWidth || 1;
      var from = timeline.scrollLeft / width * total;
      var to = (timeline.scrollLeft + timeline.clientWidth) / width * total;
      var visible = [];
      for (var i = 0; i < spans.length; i++) if (spans[i][3] <= to && spans[i][3] + spans[i][4] >= from) visible.push(i);
      return { from: from, to: to, spans: visible };
    }
    function nodeOf(i) { return inner.querySelector('.span[data-span="' + i + '"]'); }
    function select(i) {
      var old = inner.querySelector(".span.selected");
      if (old) old.classList.remove("selected");
      selected = i;
      var node = i >= 0 ? nodeOf(i) : null;
      if (node) node.classList.add("selected");
    }
    function button(i) {
      var s = spans[i];
      var kind = index.kinds[s[1]];
      // A failed call gets the "error" class: red, and never narrower than the stylesheet's minimum, however short.
      var b = h.el("button", "span " + (kind === "model" || kind === "tool" || kind === "run" ? "kind-" + kind : "other") + (s[5] & 2 ? " error" : "") + (s[5] & 1 ? " open" : "") + (i === selected ? " selected" : "") + (i === flashing ? " flash" : ""), h.spanName(i));
      b.type = "button";
      b.setAttribute("data-span", String(i));
      b.setAttribute("data-kind", kind);
      b.title = h.spanName(i) + " — " + (s[5] & 1 ? "unfinished" : h.ms(s[4])) + (s[6] ? " — " + s[6] : "");
      place(b, s[3], s[4]);
      b.addEventListener("click", function () { select(i); h.onSpan(i); });
      return b;
    }
    function draw() {
      lanes.forEach(function (laneNode) { laneNode.textContent = ""; });
      var view = inView();
      if (view.spans.length <= MAX_BUTTONS) {
        view.spans.forEach(function (i) { lanes[spans[i][2]].appendChild(button(i)); });
        return;
      }
      // Too many calls in view: density per lane in buckets a few pixels wide; a click zooms into one.
      var bucketMs = Math.max((view.to - view.from) / Math.max(1, timeline.clientWidth / 4), 1e-6);
      var buckets = {};
      view.spans.forEach(function (i) {
        var s = spans[i];
        if (index.kinds[s[1]] === "run") return;
        var key = s[2] + ":" + Math.floor(s[3] / bucketMs);
        var bucket = buckets[key] || (buckets[key] = { lane: s[2], start: Math.floor(s[3] / bucketMs) * bucketMs, calls: 0, errors: 0 });
        bucket.calls++;
        if (s[5] & 2) bucket.errors++;
      });
      Object.keys(buckets).forEach(function (key) {
        var bucket = buckets[key];
        var node = h.el("div", "bucket" + (bucket.errors ? " error" : ""));
        node.title = bucket.calls + " calls" + (bucket.errors ? ", " + bucket.errors + " failed" : "") + " — click to zoom in";
        place(node, bucket.start, bucketMs);
        node.addEventListener("click", function () { zoomTo(bucket.start, bucket.start + bucketMs * 8); });
        lanes[bucket.lane].appendChild(node);
      });
    }
    var drawPending = false;
    function redraw() {
      if (drawPending) return;
      drawPending = true;
      requestAnimationFrame(function () { drawPending = false; draw(); });
    }
    function drawAxis() {
      axis.textContent = "";
      var visible = total / zoom;
      var steps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, 120000, 300000, 600000, 1800000, 3600000];
      var step = steps[steps.length - 1];
      for (var i = 0; i < steps.length; i++) { if (visible / steps[i] <= 10) { step = steps[i]; break; } }
      var width = inner.clientWidth || 1;
      var first = Math.floor(timeline.scrollLeft / width * total / step) * step;
      var last = (timeline.scrollLeft + timeline.clientWidth) / width * total;
      for (var t = first; t <= Math.min(total, last); t += step) {
        var tick = h.el("div", "tick", h.ms(t));
        tick.style.left = (t / total * 100) + "%";
        axis.appendChild(tick);
      }
    }
    function setZoom(next, anchorFraction) {
      var frac = anchorFraction === undefined ? 0.5 : anchorFraction;
      var anchor = (timeline.scrollLeft + timeline.clientWidth * frac) / inner.clientWidth;
      zoom = Math.min(Math.max(2000, total * 10), Math.max(1, next));
      inner.style.width = (zoom * 100) + "%";
      timeline.scrollLeft = anchor * inner.clientWidth - timeline.clientWidth * frac;
      document.getElementById("zoom-level").textContent = zoom.toFixed(zoom < 10 ? 1 : 0) + "x";
      drawAxis();
      draw();
    }
    function zoomTo(from, to) {
      setZoom(total / Math.max(to - from, 1e-6), 0);
      timeline.scrollLeft = from / total * inner.clientWidth;
      drawAxis();
      draw();
    }
    // Brings call i into the middle of the view (zoomed in around it when the view is too dense to draw it), selected and highlighted.
    function reveal(i) {
      var s = spans[i];
      var middle = s[3] + s[4] / 2;
      timeline.scrollLeft = middle / total * inner.clientWidth - timeline.clientWidth / 2;
      if (inView().spans.length > MAX_BUTTONS) {
        var half = Math.max(s[4], total / Math.max(zoom, 1) / 1000);
        zoomTo(Math.max(0, middle - half * 4), Math.min(total, middle + half * 4));
      } else {
        drawAxis();
        draw();
      }
      select(i);
      // Highlighted for a moment, through redraws (a scroll redraws the calls on the next frame).
      flashing = i;
      var node = nodeOf(i);
      if (node) node.classList.add("flash");
      setTimeout(function () {
        if (flashing !== i) return;
        flashing = -1;
        var shown = nodeOf(i);
        if (shown) shown.classList.remove("flash");
      }, 2000);
      timeline.scrollIntoView({ block: "center" });
    }
    document.getElementById("zoom-in").addEventListener("click", function () { setZoom(zoom * 2); });
    document.getElementById("zoom-out").addEventListener("click", function () { setZoom(zoom / 2); });
    document.getElementById("zoom-fit").addEventListener("click", function () { setZoom(1); });
    timeline.addEventListener("scroll", function () { drawAxis(); redraw(); });
    timeline.addEventListener("wheel", function (ev) {
      if (!ev.ctrlKey && !ev.metaKey) return;
      ev.preventDefault();
      var rect = timeline.getBoundingClientRect();
      setZoom(zoom * (ev.deltaY < 0 ? 1.25 : 0.8), (ev.clientX - rect.left) / rect.width);
    }, { passive: false });
    drawAxis();
    draw();
    return { select: select, reveal: reveal };
  }
`;

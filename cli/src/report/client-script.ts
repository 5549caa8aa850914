import { PAYLOAD_READER_SCRIPT } from "./client-payloads.js";

/**
 * The report's script, inlined. It inflates the embedded index with the browser's own gzip
 * `DecompressionStream`, draws the timeline (zoom with the buttons or Ctrl+wheel; only the calls
 * in view are drawn, and a view too dense to draw call by call is drawn as density, a click on
 * which zooms in), lists events in a virtualized table (only the rows in view exist), and inflates
 * a payload block when an event or call is opened. Every recorded value is put into the page with
 * textContent, never parsed as HTML.
 */
export const REPORT_SCRIPT = String.raw`
(function () {
  "use strict";
${PAYLOAD_READER_SCRIPT}
  var MAX_BUTTONS = 1500;
  var ROW = 24;
  var details = document.getElementById("details");

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  if (typeof DecompressionStream === "undefined") {
    details.textContent = "This browser cannot read the report's packed data (it needs DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or later).";
    return;
  }
  var packed = JSON.parse(document.getElementById("trace-payloads").textContent);
  inflate(document.getElementById("trace-index").textContent).then(start, function (error) {
    details.textContent = "The report's data could not be read: " + error;
  });

  function start(index) {
    var total = Math.max(1, index.endTs - index.startTs);
    var zoom = 1;
    var timeline = document.getElementById("timeline");
    var inner = document.getElementById("timeline-inner");
    var axis = document.getElementById("axis");
    var selectedNode = null;
    var showing = 0;
    var spans = index.spans;
    var events = index.events;
    var spanEvents = spans.map(function () { return []; });
    events.forEach(function (e, pos) { if (e[2] >= 0) spanEvents[e[2]].push(pos); });

    function ms(v) {
      if (v === null || v === undefined) return "-";
      if (v < 1000) return (v < 10 ? v.toFixed(2) : Math.round(v)) + " ms";
      if (v < 60000) return (v / 1000).toFixed(2) + " s";
      return Math.floor(v / 60000) + " m " + Math.round((v % 60000) / 1000) + " s";
    }
    function spanName(i) { return i >= 0 ? index.names[spans[i][0]] : ""; }
    function select(node) {
      if (selectedNode) selectedNode.classList.remove("selected");
      selectedNode = node;
      if (node) node.classList.add("selected");
    }

    var payloadAt = payloadReader(packed, index.eventsPerBlock, index.stringsPerBlock);
    function pretty(value) {
      if (value === null || value === undefined) return "(no payload recorded)";
      try { return JSON.stringify(value, null, 2); } catch (e) { return String(value); }
    }
    function payloadInto(holder, pos, token) {
      payloadAt(pos).then(function (value) {
        if (token !== showing) return;
        var pre = el("pre", "payload", pretty(value));
        pre.setAttribute("data-seq", String(events[pos][0]));
        holder.appendChild(pre);
      });
    }
    function eventHeading(pos) { return el("h2", null, "#" + events[pos][0] + " " + index.kinds[events[pos][3]]); }

    function showEvent(pos) {
      var token = ++showing;
      var e = events[pos];
      details.textContent = "";
      details.appendChild(eventHeading(pos));
      details.appendChild(el("div", "meta", "+" + ms(e[1]) + (e[2] >= 0 ? "  in " + spanName(e[2]) : "") + "  " + new Date(index.startTs + e[1]).toISOString()));
      payloadInto(details, pos, token);
    }
    function showSpan(i) {
      var token = ++showing;
      var s = spans[i];
      details.textContent = "";
      details.appendChild(el("h2", null, spanName(i)));
      var facts = [index.kinds[s[1]] + " call", "+" + ms(s[3]), "duration " + (s[5] & 1 ? "unfinished" : ms(s[4]))];
      if (s[7] !== null) facts.push("tokens in " + s[7] + " / out " + (s[8] || 0));
      details.appendChild(el("div", "meta", facts.join("  ·  ")));
      if (s[6]) details.appendChild(el("div", "run-error", s[6]));
      spanEvents[i].slice(0, 50).forEach(function (pos) {
        var holder = el("div");
        holder.appendChild(eventHeading(pos));
        details.appendChild(holder);
        payloadInto(holder, pos, token);
      });
    }

    // Timeline: lanes once; the calls in view redrawn on scroll and zoom.
    var lanes = [];
    for (var l = 0; l < index.lanes; l++) {
      var lane = el("div", "lane");
      lane.setAttribute("data-lane", String(l));
      lanes.push(lane);
      inner.appendChild(lane);
    }
    function place(node, from, length) {
      node.style.left = (from / total * 100) + "%";
      node.style.width = (Math.max(length, 0) / total * 100) + "%";
    }
    function drawSpans() {
      lanes.forEach(function (laneNode) { laneNode.textContent = ""; });
      var width = inner.clientWidth || 1;
      var from = timeline.scrollLeft / width * total;
      var to = (timeline.scrollLeft + timeline.clientWidth) / width * total;
      var visible = [];
      for (var i = 0; i < spans.length; i++) if (spans[i][3] <= to && spans[i][3] + spans[i][4] >= from) visible.push(i);
      if (visible.length <= MAX_BUTTONS) {
        visible.forEach(function (i) {
          var s = spans[i];
          var kind = index.kinds[s[1]];
          var b = el("button", "span " + (kind === "model" || kind === "tool" || kind === "run" ? "kind-" + kind : "other") + (s[5] & 2 ? " error" : "") + (s[5] & 1 ? " open" : ""), spanName(i));
          b.type = "button";
          b.setAttribute("data-span", String(i));
          b.setAttribute("data-kind", kind);
          b.title = spanName(i) + " — " + (s[5] & 1 ? "unfinished" : ms(s[4])) + (s[6] ? " — " + s[6] : "");
          place(b, s[3], s[4]);
          b.addEventListener("click", function () { select(b); showSpan(i); });
          lanes[s[2]].appendChild(b);
        });
        return;
      }
      // Too many calls in view: density per lane in buckets a few pixels wide; a click zooms into one.
      var bucketMs = Math.max((to - from) / Math.max(1, timeline.clientWidth / 4), 1e-6);
      var buckets = {};
      visible.forEach(function (i) {
        var s = spans[i];
        if (index.kinds[s[1]] === "run") return;
        var key = s[2] + ":" + Math.floor(s[3] / bucketMs);
        var bucket = buckets[key] || (buckets[key] = { lane: s[2], start: Math.floor(s[3] / bucketMs) * bucketMs, calls: 0, errors: 0 });
        bucket.calls++;
        if (s[5] & 2) bucket.errors++;
      });
      Object.keys(buckets).forEach(function (key) {
        var bucket = buckets[key];
        var node = el("div", "bucket" + (bucket.errors ? " error" : ""));
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
      requestAnimationFrame(function () { drawPending = false; drawSpans(); });
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
        var tick = el("div", "tick", ms(t));
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
      drawSpans();
    }
    function zoomTo(from, to) {
      setZoom(total / Math.max(to - from, 1e-6), 0);
      timeline.scrollLeft = from / total * inner.clientWidth;
      drawAxis();
      drawSpans();
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

    // Events: a virtualized table (a spacer row above and below the rows in view).
    var wrap = document.getElementById("events-wrap");
    var body = document.querySelector("#events tbody");
    var filter = document.getElementById("event-filter");
    var matching = events.map(function (e, pos) { return pos; });
    var selectedSeq = null;
    function spacer(height) {
      var tr = el("tr", "spacer");
      var td = el("td");
      td.colSpan = 4;
      td.style.height = height + "px";
      tr.appendChild(td);
      return tr;
    }
    function row(pos) {
      var e = events[pos];
      var kind = index.kinds[e[3]];
      var tr = el("tr", "row" + (e[0] === selectedSeq ? " selected" : ""));
      tr.setAttribute("data-seq", String(e[0]));
      tr.appendChild(el("td", "n", e[0]));
      tr.appendChild(el("td", "n", "+" + ms(e[1])));
      tr.appendChild(el("td", "kind-" + kind, kind));
      tr.appendChild(el("td", null, e.length > 4 ? spanName(e[2]) + "  " + e[4] : spanName(e[2])));
      return tr;
    }
    function renderRows() {
      var first = Math.max(0, Math.floor(wrap.scrollTop / ROW) - 10);
      var last = Math.min(matching.length, first + Math.ceil((wrap.clientHeight || 420) / ROW) + 20);
      body.textContent = "";
      body.appendChild(spacer(first * ROW));
      for (var i = first; i < last; i++) body.appendChild(row(matching[i]));
      body.appendChild(spacer((matching.length - last) * ROW));
    }
    // One listener for every row, present or yet to be drawn: rows are replaced as the list scrolls.
    body.addEventListener("click", function (ev) {
      var tr = ev.target && ev.target.closest ? ev.target.closest("tr.row") : null;
      if (!tr) return;
      var pos = positionOf(Number(tr.getAttribute("data-seq")));
      if (pos < 0) return;
      selectedSeq = events[pos][0];
      select(tr);
      showEvent(pos);
    });
    var rowsPending = false;
    wrap.addEventListener("scroll", function () {
      if (rowsPending) return;
      rowsPending = true;
      requestAnimationFrame(function () { rowsPending = false; renderRows(); });
    });
    filter.addEventListener("input", function () {
      var q = filter.value.toLowerCase();
      matching = [];
      events.forEach(function (e, pos) { if (!q || (index.kinds[e[3]] + " " + spanName(e[2]) + " " + (e[4] || "")).toLowerCase().indexOf(q) >= 0) matching.push(pos); });
      wrap.scrollTop = 0;
      renderRows();
    });
    function positionOf(seq) {
      var lo = 0, hi = events.length - 1;
      while (lo <= hi) { var mid = (lo + hi) >> 1; if (events[mid][0] < seq) lo = mid + 1; else if (events[mid][0] > seq) hi = mid - 1; else return mid; }
      return -1;
    }
    document.querySelectorAll("[data-goto-seq]").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        var pos = positionOf(Number(a.getAttribute("data-goto-seq")));
        if (pos < 0) return;
        filter.value = "";
        matching = events.map(function (e, p) { return p; });
        wrap.scrollTop = Math.max(0, pos * ROW - wrap.clientHeight / 2);
        renderRows();
        var tr = body.querySelector('tr[data-seq="' + events[pos][0] + '"]');
        if (tr) { tr.scrollIntoView({ block: "center" }); tr.click(); }
      });
    });

    drawAxis();
    drawSpans();
    renderRows();
    document.body.setAttribute("data-ready", "true");
  }
})();
`;

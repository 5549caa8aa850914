/**
 * The report's script, inlined. It reads the embedded JSON, draws the timeline (zoom with the
 * buttons or Ctrl+wheel), lists events, and shows a span's or an event's payload on click.
 * Every recorded value is put into the page with textContent, never parsed as HTML.
 */
export const REPORT_SCRIPT = String.raw`
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("trace-data").textContent);
  var layout = data.layout;
  var total = Math.max(1, layout.endTs - layout.startTs);
  var zoom = 1;
  var timeline = document.getElementById("timeline");
  var inner = document.getElementById("timeline-inner");
  var axis = document.getElementById("axis");
  var details = document.getElementById("details");
  var spansById = {};
  var eventsBySpan = {};
  var selected = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function ms(v) {
    if (v === null || v === undefined) return "-";
    if (v < 1000) return Math.round(v) + " ms";
    if (v < 60000) return (v / 1000).toFixed(2) + " s";
    return Math.floor(v / 60000) + " m " + Math.round((v % 60000) / 1000) + " s";
  }
  function pretty(value) {
    if (value === undefined) return "(no payload recorded)";
    try { return JSON.stringify(value, null, 2); } catch (e) { return String(value); }
  }
  function select(node) {
    if (selected) selected.classList.remove("selected");
    selected = node;
    if (node) node.classList.add("selected");
  }

  layout.spans.forEach(function (s) { spansById[s.spanId] = s; });
  data.events.forEach(function (e) {
    if (!e.spanId) return;
    (eventsBySpan[e.spanId] = eventsBySpan[e.spanId] || []).push(e);
  });

  function showEvent(e) {
    details.textContent = "";
    var span = e.spanId ? spansById[e.spanId] : null;
    details.appendChild(el("h2", null, "#" + e.seq + " " + e.kind));
    details.appendChild(el("div", "meta", "+" + ms(e.ts - layout.startTs) + (span ? "  in " + span.name : "") + "  " + new Date(e.ts).toISOString()));
    if (e.payloadNote) details.appendChild(el("div", "meta", e.payloadNote));
    var pre = el("pre", "payload", pretty(e.payload));
    pre.setAttribute("data-seq", String(e.seq));
    details.appendChild(pre);
  }

  function showSpan(s) {
    details.textContent = "";
    details.appendChild(el("h2", null, s.name));
    var facts = [s.kind + " call", "+" + ms(s.offsetMs), "duration " + (s.open ? "unfinished" : ms(s.durationMs))];
    if (s.inputTokens !== undefined) facts.push("tokens in " + s.inputTokens + " / out " + (s.outputTokens || 0));
    details.appendChild(el("div", "meta", facts.join("  ·  ")));
    if (s.error) details.appendChild(el("div", "run-error", s.error));
    (eventsBySpan[s.spanId] || []).forEach(function (e) {
      details.appendChild(el("h2", null, "#" + e.seq + " " + e.kind));
      if (e.payloadNote) details.appendChild(el("div", "meta", e.payloadNote));
      var pre = el("pre", "payload", pretty(e.payload));
      pre.setAttribute("data-seq", String(e.seq));
      details.appendChild(pre);
    });
  }

  function drawTimeline() {
    inner.style.width = (zoom * 100) + "%";
    var lanes = [];
    for (var i = 0; i < layout.lanes; i++) {
      var lane = el("div", "lane");
      lane.setAttribute("data-lane", String(i));
      lanes.push(lane);
      inner.appendChild(lane);
    }
    layout.spans.forEach(function (s) {
      var kindClass = s.kind === "model" || s.kind === "tool" || s.kind === "run" ? "kind-" + s.kind : "other";
      var b = el("button", "span " + kindClass + (s.error ? " error" : "") + (s.open ? " open" : ""), s.name);
      b.type = "button";
      b.setAttribute("data-span", s.spanId);
      b.setAttribute("data-kind", s.kind);
      b.title = s.name + " — " + (s.open ? "unfinished" : ms(s.durationMs)) + (s.error ? " — " + s.error : "");
      b.style.left = (s.offsetMs / total * 100) + "%";
      b.style.width = (Math.max(s.durationMs, 0) / total * 100) + "%";
      b.addEventListener("click", function () { select(b); showSpan(s); });
      lanes[s.lane].appendChild(b);
    });
    drawAxis();
  }

  function drawAxis() {
    axis.textContent = "";
    var visible = total / zoom;
    var steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, 120000, 300000, 600000, 1800000, 3600000];
    var step = steps[steps.length - 1];
    for (var i = 0; i < steps.length; i++) { if (visible / steps[i] <= 10) { step = steps[i]; break; } }
    for (var t = 0; t <= total; t += step) {
      var tick = el("div", "tick", ms(t));
      tick.style.left = (t / total * 100) + "%";
      axis.appendChild(tick);
    }
  }

  function setZoom(next, anchorFraction) {
    var frac = anchorFraction === undefined ? 0.5 : anchorFraction;
    var anchor = (timeline.scrollLeft + timeline.clientWidth * frac) / inner.clientWidth;
    zoom = Math.min(2000, Math.max(1, next));
    inner.style.width = (zoom * 100) + "%";
    timeline.scrollLeft = anchor * inner.clientWidth - timeline.clientWidth * frac;
    document.getElementById("zoom-level").textContent = zoom.toFixed(zoom < 10 ? 1 : 0) + "x";
    drawAxis();
  }

  document.getElementById("zoom-in").addEventListener("click", function () { setZoom(zoom * 2); });
  document.getElementById("zoom-out").addEventListener("click", function () { setZoom(zoom / 2); });
  document.getElementById("zoom-fit").addEventListener("click", function () { setZoom(1); });
  timeline.addEventListener("wheel", function (ev) {
    if (!ev.ctrlKey && !ev.metaKey) return;
    ev.preventDefault();
    var rect = timeline.getBoundingClientRect();
    setZoom(zoom * (ev.deltaY < 0 ? 1.25 : 0.8), (ev.clientX - rect.left) / rect.width);
  }, { passive: false });

  function drawEvents() {
    var body = document.querySelector("#events tbody");
    var filter = document.getElementById("event-filter");
    function render() {
      var q = filter.value.toLowerCase();
      body.textContent = "";
      data.events.forEach(function (e) {
        var span = e.spanId ? spansById[e.spanId] : null;
        var label = span ? span.name : "";
        if (q && (e.kind + " " + label).toLowerCase().indexOf(q) < 0) return;
        var tr = el("tr");
        tr.setAttribute("data-seq", String(e.seq));
        tr.appendChild(el("td", "n", e.seq));
        tr.appendChild(el("td", "n", "+" + ms(e.ts - layout.startTs)));
        tr.appendChild(el("td", "kind-" + e.kind, e.kind));
        tr.appendChild(el("td", null, label));
        tr.addEventListener("click", function () { select(tr); showEvent(e); });
        body.appendChild(tr);
      });
    }
    filter.addEventListener("input", render);
    render();
  }

  document.querySelectorAll("[data-goto-seq]").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      var seq = Number(a.getAttribute("data-goto-seq"));
      var row = document.querySelector('#events tr[data-seq="' + seq + '"]');
      if (row) { row.scrollIntoView({ block: "center" }); row.click(); }
    });
  });

  drawTimeline();
  drawEvents();
})();
`;

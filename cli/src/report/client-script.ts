import { PAYLOAD_READER_SCRIPT } from "./client-payloads.js";
import { TIMELINE_SCRIPT } from "./client-timeline.js";

/**
 * The report's script, inlined. It inflates the embedded index with the browser's own gzip
 * `DecompressionStream`, draws the timeline (`TIMELINE_SCRIPT`), lists events in a virtualized
 * table (only the rows in view exist), inflates a payload block when an event or call is opened,
 * and makes the error list's entries go to their failed call. Every recorded value is put into the page with
 * textContent, never parsed as HTML.
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw on purpose, so a backslash later added to the inlined browser code reaches the page as written
export const REPORT_SCRIPT = String.raw`
(function () {
  "use strict";
${PAYLOAD_READER_SCRIPT}
${TIMELINE_SCRIPT}
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
    // The selected event row (calls on the timeline keep their own selection, through redraws).
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
    var timelineNav = timelineView(index, { el: el, ms: ms, spanName: spanName, onSpan: function (i) { selectedSeq = null; select(null); showSpan(i); } });

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
      timelineNav.select(-1);
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

    // The error list: an entry shows its failed call on the timeline, selected and highlighted, with its payloads.
    document.querySelectorAll("[data-goto-span]").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        var i = Number(a.getAttribute("data-goto-span"));
        if (!(i >= 0 && i < spans.length)) return;
        selectedSeq = null;
        select(null);
        renderRows();
        timelineNav.reveal(i);
        showSpan(i);
      });
    });

    renderRows();
    document.body.setAttribute("data-ready", "true");
  }
})();
`;

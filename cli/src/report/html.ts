import { formatCount, formatDuration, formatTime } from "../output/format.js";
import { REPORT_SCRIPT } from "./client-script.js";
import { layoutReport, type ReportData, type ReportLayout } from "./model.js";
import { packedIndex, pageIndex } from "./page-index.js";
import { PayloadPacker, type PackedPayloads } from "./payload-packer.js";
import { REPORT_CSS } from "./styles.js";

/** The page may load nothing: no network, no external scripts, fonts or images. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function escapeHtml(text: unknown): string {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a <script> element: no `</script>`, no HTML comment openers, no line separators. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v))
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function card(label: string, value: string): string {
  return `<div class="card"><div class="v">${escapeHtml(value)}</div><div class="k">${escapeHtml(label)}</div></div>`;
}

function summarySection(data: ReportData, layout: ReportLayout): string {
  const run = data.run;
  const duration = run.endTs !== undefined ? run.endTs - run.startTs : undefined;
  const cards = [
    card("duration", duration === undefined ? "unfinished" : formatDuration(duration)),
    card("model calls", formatCount(layout.totals.modelCalls)),
    card("tool calls", formatCount(layout.totals.toolCalls)),
    card("input tokens", formatCount(layout.totals.inputTokens)),
    card("output tokens", formatCount(layout.totals.outputTokens)),
    card("errors", formatCount(layout.errors.length)),
    card("events", formatCount(layout.totals.events)),
  ];
  if (run.droppedEvents) cards.push(card("dropped events", formatCount(run.droppedEvents)));
  return `<section id="summary"><div class="cards">${cards.join("")}</div></section>`;
}

function figuresSection(layout: ReportLayout): string {
  const models = layout.models
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.model)}</td><td class="n">${m.calls}</td><td class="n">${formatCount(m.inputTokens)}</td><td class="n">${formatCount(m.outputTokens)}</td><td class="n">${formatDuration(m.p50Ms)}</td><td class="n">${formatDuration(m.maxMs)}</td></tr>`,
    )
    .join("");
  const tools = layout.tools
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.tool)}</td><td class="n">${t.calls}</td><td class="n">${t.errors}</td><td class="n">${formatDuration(t.p50Ms)}</td><td class="n">${formatDuration(t.p95Ms)}</td><td class="n">${formatDuration(t.maxMs)}</td></tr>`,
    )
    .join("");
  return `<section class="grid">
<div><h2>Tokens and latency by model</h2><table id="models"><thead><tr><th>model</th><th>calls</th><th>input tokens</th><th>output tokens</th><th>p50</th><th>max</th></tr></thead><tbody>${models || '<tr><td colspan="6" class="meta">no model calls</td></tr>'}</tbody></table></div>
<div><h2>Tool latency and errors</h2><table id="tools"><thead><tr><th>tool</th><th>calls</th><th>errors</th><th>p50</th><th>p95</th><th>max</th></tr></thead><tbody>${tools || '<tr><td colspan="6" class="meta">no tool calls</td></tr>'}</tbody></table></div>
</section>`;
}

/**
 * The error list: each entry says the error's class and message, and is a link to the failed call
 * (the page's script scrolls the timeline to it, selects and highlights it); an entry an ERROR
 * event reported links to that event in the event list too.
 */
function errorsSection(layout: ReportLayout): string {
  if (layout.errors.length === 0)
    return `<section id="errors"><h2>Errors</h2><p class="meta">none recorded</p></section>`;
  const items = layout.errors
    .map((e) => {
      const what = `<span class="error-class">${escapeHtml(e.errorClass)}</span>: <span class="error-message">${escapeHtml(e.message)}</span>`;
      const entry =
        e.span !== undefined ? `<a href="#timeline" class="error-link" data-goto-span="${e.span}">${what}</a>` : what;
      const where = ` <span class="mono meta">+${formatDuration(e.ts - layout.startTs)} ${escapeHtml(e.where)}</span>`;
      const event = e.seq !== undefined ? ` <a href="#" data-goto-seq="${e.seq}">event #${e.seq}</a>` : "";
      return `<li class="error-entry"${e.span !== undefined ? ` data-span="${e.span}"` : ""}>${entry}${where}${event}</li>`;
    })
    .join("");
  return `<section id="errors"><h2>Errors</h2><ul class="errors">${items}</ul></section>`;
}

function packedPayloadsOf(data: ReportData): PackedPayloads {
  if (data.payloads) return data.payloads;
  const packer = new PayloadPacker();
  for (const event of data.events) packer.add(event.payload);
  return packer.finish();
}

/**
 * One self-contained HTML page for a run: summary, token and latency figures, errors, a zoomable
 * timeline of model and tool calls (parallel calls on separate lanes; runs too dense to draw call
 * by call are drawn as density until zoomed in), a virtualized event list and every event's
 * payload on click. The page embeds a compact index and the payloads compressed, deduplicated and
 * inflated on demand, so a 100k-event run stays a few megabytes and opens at once. Payloads are
 * shown exactly as recorded (already redacted by the recorder).
 */
export function renderReportHtml(data: ReportData): string {
  const layout = layoutReport(data);
  const run = data.run;
  const payloads = packedPayloadsOf(data);
  const index = packedIndex(pageIndex(data, layout, payloads));
  const subtitle = [
    run.agent && `agent ${run.agent}`,
    run.model && `model ${run.model}`,
    `started ${formatTime(run.startTs)}`,
  ]
    .filter(Boolean)
    .join(" · ");
  const redaction = run.redaction?.length
    ? `<div class="meta">redaction applied: ${escapeHtml(run.redaction.join(", "))}</div>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>trace report: ${escapeHtml(run.runId)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>Run <span class="mono">${escapeHtml(run.runId)}</span> <span class="badge ${escapeHtml(run.status)}" id="status">${escapeHtml(run.status)}</span></h1>
<div class="meta">${escapeHtml(subtitle)}</div>
${run.error ? `<div class="run-error" id="run-error">${escapeHtml(run.errorClass ? `${run.errorClass}: ${run.error}` : run.error)}</div>` : ""}
${redaction}
</header>
${summarySection(data, layout)}
<section>
<h2>Timeline</h2>
<div class="toolbar"><button type="button" id="zoom-out" title="zoom out">−</button><button type="button" id="zoom-in" title="zoom in">+</button><button type="button" id="zoom-fit">fit</button><span class="meta" id="zoom-level">1.0x</span><span class="meta">Ctrl+wheel zooms · click a call for its payloads</span>
<span class="legend meta"><span style="background:var(--model)"></span>model call<span style="background:var(--tool)"></span>tool call<span style="background:var(--err)"></span>error</span></div>
<div id="timeline"><div id="timeline-inner"><div class="axis" id="axis"></div></div></div>
</section>
<section><h2>Details</h2><div id="details"><p class="meta">Click a call on the timeline or an event below to see its payload.</p></div></section>
${figuresSection(layout)}
${errorsSection(layout)}
<section><h2>Events</h2><div class="toolbar"><input type="search" id="event-filter" placeholder="filter by kind or call"></div>
<div id="events-wrap"><table id="events"><thead><tr><th>seq</th><th>time</th><th>kind</th><th>call</th></tr></thead><tbody></tbody></table></div></section>
<footer>${escapeHtml(data.producer ?? "harnessx trace")} · generated ${escapeHtml(formatTime(Date.now()))} · self-contained, loads nothing from the network</footer>
<script id="trace-index" type="application/octet-stream">${index}</script>
<script id="trace-payloads" type="application/json">${scriptJson({ blocks: payloads.blocks, strings: payloads.strings })}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * The narrowest a failed call is drawn on the timeline, in pixels: a call that failed at once
 * (zero milliseconds) must still be seen and clicked.
 */
export const MIN_FAILED_CALL_PX = 8;

/** The report's stylesheet, inlined: the page loads nothing from anywhere. System fonts only. */
// biome-ignore lint/complexity/noUselessStringRaw: raw on purpose, so a backslash later added to the inlined browser code reaches the page as written
export const REPORT_CSS = String.raw`
:root { --bg:#fff; --fg:#1d2430; --muted:#5d6778; --line:#dfe3ea; --panel:#f6f7f9; --model:#4c7bd9; --tool:#2e9e6b; --run:#9aa3b2; --other:#b07cc6; --err:#d64545; --sel:#f2b01e; }
* { box-sizing: border-box; }
body { margin:0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
header, section, footer { padding: 12px 20px; }
header { border-bottom:1px solid var(--line); }
h1 { font-size:18px; margin:0 0 4px; word-break: break-all; }
h2 { font-size:15px; margin:0 0 8px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size:12.5px; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; font-weight:600; background:var(--panel); border:1px solid var(--line); }
.badge.completed { background:#e3f5ea; border-color:#9ad3b1; }
.badge.failed, .badge.crashed { background:#fbe4e4; border-color:#eca5a5; }
.meta { color:var(--muted); }
.run-error { color:var(--err); margin-top:4px; }
.cards { display:flex; flex-wrap:wrap; gap:10px; }
.card { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:8px 12px; min-width:120px; }
.card .v { font-size:18px; font-weight:600; }
.card .k { color:var(--muted); font-size:12px; }
.grid { display:grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap:16px; }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; padding:3px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12px; }
td.n { text-align:right; font-variant-numeric: tabular-nums; }
.toolbar { display:flex; gap:6px; align-items:center; margin-bottom:6px; }
.toolbar button { font: inherit; padding:2px 10px; border:1px solid var(--line); background:var(--panel); border-radius:4px; cursor:pointer; }
.legend span { display:inline-block; width:10px; height:10px; border-radius:2px; margin:0 4px 0 10px; vertical-align:middle; }
#timeline { overflow-x:auto; overflow-y:hidden; border:1px solid var(--line); border-radius:6px; position:relative; }
#timeline-inner { position:relative; min-width:100%; }
.axis { position:relative; height:20px; border-bottom:1px solid var(--line); color:var(--muted); font-size:11px; }
.tick { position:absolute; top:0; height:100%; border-left:1px solid var(--line); padding-left:3px; white-space:nowrap; }
.lane { position:relative; height:26px; border-bottom:1px dashed #eef0f4; }
.span { position:absolute; top:3px; height:20px; min-width:3px; border:0; border-radius:3px; color:#fff; font-size:11px; padding:0 4px; text-align:left; overflow:hidden; white-space:nowrap; text-overflow:ellipsis; cursor:pointer; }
.span.kind-model { background:var(--model); }
.span.kind-tool { background:var(--tool); }
.span.kind-run { background:var(--run); }
.span.other { background:var(--other); }
.span.error { background:var(--err); min-width:${MIN_FAILED_CALL_PX}px; z-index:1; }
.span.flash { animation: flash .5s ease-in-out 4 alternate; z-index:2; }
@keyframes flash { from { box-shadow:0 0 0 0 var(--sel); } to { box-shadow:0 0 0 5px var(--sel); } }
.span.open { background-image: repeating-linear-gradient(45deg, transparent 0 6px, rgba(255,255,255,.35) 6px 12px); }
.span.selected, tr.selected td { outline:2px solid var(--sel); }
#details { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:10px; min-height:60px; }
#details pre { white-space:pre-wrap; word-break:break-word; max-height:480px; overflow:auto; background:#fff; border:1px solid var(--line); padding:8px; margin:6px 0 0; }
#events-wrap { max-height:420px; overflow:auto; border:1px solid var(--line); border-radius:6px; }
#events tr.row { cursor:pointer; }
#events tr.row td { height:24px; padding:0 8px; white-space:nowrap; overflow:hidden; }
#events tr.spacer td { padding:0; border:0; }
.bucket { position:absolute; top:3px; height:20px; min-width:2px; background:var(--tool); opacity:.8; border-radius:2px; cursor:zoom-in; }
.bucket.error { background:var(--err); opacity:1; min-width:${MIN_FAILED_CALL_PX}px; z-index:1; }
#events tr.row:hover td { background:#f0f4fb; }
#events td.kind-error { color:var(--err); font-weight:600; }
.errors li { color:var(--err); margin-bottom:2px; }
.errors .error-link { color:inherit; text-decoration:none; cursor:pointer; }
.errors .error-link:hover .error-message { text-decoration:underline; }
.errors .error-class { font-weight:600; }
input[type=search] { font:inherit; padding:2px 6px; border:1px solid var(--line); border-radius:4px; width:240px; }
footer { color:var(--muted); font-size:12px; border-top:1px solid var(--line); }
`;

// The report's error list: one entry per failure, with its class and message, linked to the failed call.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { renderReportHtml } from "./html.js";
import { layoutReport, type ReportData } from "./model.js";

const T0 = Date.UTC(2026, 0, 1);

/** A run whose tool call fails at once, then whose model call fails (retried, then reported by an ERROR event), failing the run. */
function failedRun(): ReportData {
  return {
    run: {
      runId: "run_f",
      agent: "bot",
      status: "failed",
      startTs: T0,
      endTs: T0 + 60,
      error: "model overloaded",
      errorClass: "ProviderError",
    },
    spans: [
      {
        spanId: "r",
        kind: "run",
        name: "invoke_agent bot",
        startTs: T0,
        endTs: T0 + 60,
        error: "model overloaded",
        errorClass: "ProviderError",
      },
      { spanId: "m1", parentSpanId: "r", kind: "model", name: "chat m", startTs: T0 + 1, endTs: T0 + 5 },
      {
        spanId: "t1",
        parentSpanId: "r",
        kind: "tool",
        name: "execute_tool charge_card",
        startTs: T0 + 6,
        endTs: T0 + 6,
        error: "card declined",
        errorClass: "Error",
      },
      {
        spanId: "m2",
        parentSpanId: "r",
        kind: "model",
        name: "chat m",
        startTs: T0 + 6,
        endTs: T0 + 59,
        error: "model overloaded",
        errorClass: "ProviderError",
      },
    ],
    events: [
      { seq: 1, ts: T0, spanId: "r", kind: "agent_start" },
      { seq: 9, ts: T0 + 59, spanId: "r", kind: "error", message: "model overloaded", errorClass: "ProviderError" },
      { seq: 10, ts: T0 + 60, spanId: "r", kind: "agent_end" },
    ],
  };
}

describe("the error list", () => {
  test("each failure once, oldest first, with its class, its message and the call it links to", () => {
    const layout = layoutReport(failedRun());
    const at = (spanId: string) => layout.spans.findIndex((s) => s.spanId === spanId);
    assert.deepEqual(
      layout.errors.map((e) => [e.errorClass, e.message, e.where, e.span, e.seq]),
      [
        ["Error", "card declined", "execute_tool charge_card", at("t1"), undefined],
        // The ERROR event says what the failed model call says: it becomes that entry's event link, and the run's error is not repeated.
        ["ProviderError", "model overloaded", "chat m", at("m2"), 9],
      ],
    );
  });

  test("an ERROR event that no failed call explains is listed, linked to its span; the run's own different failure too", () => {
    const data = failedRun();
    data.events[1] = {
      seq: 9,
      ts: T0 + 30,
      spanId: "r",
      kind: "error",
      payload: { source: "extension", error: { name: "ExtensionError", message: "hook threw" } },
    };
    data.run.error = "gave up";
    data.run.errorClass = "RunError";
    const layout = layoutReport(data);
    const run = layout.spans.findIndex((s) => s.kind === "run");
    assert.deepEqual(
      layout.errors.map((e) => [e.errorClass, e.message, e.where, e.span]),
      [
        ["Error", "card declined", "execute_tool charge_card", layout.spans.findIndex((s) => s.spanId === "t1")],
        ["ProviderError", "model overloaded", "chat m", layout.spans.findIndex((s) => s.spanId === "m2")],
        ["ExtensionError", "hook threw", "run", run],
        ["RunError", "gave up", "run", run],
      ],
    );
  });

  test("the page: each entry is a link to its call (data-goto-span), showing class and message; the header names the run's error class", () => {
    const data = failedRun();
    const html = renderReportHtml(data);
    const layout = layoutReport(data);
    const tool = layout.spans.findIndex((s) => s.spanId === "t1");
    assert.match(
      html,
      new RegExp(
        `<li class="error-entry" data-span="${tool}"><a href="#timeline" class="error-link" data-goto-span="${tool}"><span class="error-class">Error</span>: <span class="error-message">card declined</span></a>`,
      ),
    );
    assert.match(
      html,
      /data-goto-span="\d+"><span class="error-class">ProviderError<\/span>: <span class="error-message">model overloaded<\/span><\/a> <span class="mono meta">\+6ms chat m<\/span> <a href="#" data-goto-seq="9">event #9<\/a>/,
    );
    assert.match(html, /<div class="run-error" id="run-error">ProviderError: model overloaded<\/div>/);
  });

  test("the stylesheet draws a failed call red and never narrower than the minimum", () => {
    const html = renderReportHtml(failedRun());
    assert.match(html, /\.span\.error \{ background:var\(--err\); min-width:\d+px;/);
  });
});

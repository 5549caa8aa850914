import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { renderReportHtml } from "./html.js";
import { layoutReport, type ReportData } from "./model.js";

const T0 = Date.UTC(2026, 0, 1);

function data(): ReportData {
  return {
    run: { runId: "run_1", agent: "bot", status: "completed", startTs: T0, endTs: T0 + 100 },
    spans: [
      { spanId: "r", kind: "run", name: "run bot", startTs: T0, endTs: T0 + 100 },
      {
        spanId: "m1",
        parentSpanId: "r",
        kind: "model",
        name: "chat m",
        model: "m",
        startTs: T0 + 1,
        endTs: T0 + 10,
        inputTokens: 100,
        outputTokens: 10,
      },
      { spanId: "t1", parentSpanId: "r", kind: "tool", name: "a", tool: "a", startTs: T0 + 11, endTs: T0 + 50 },
      {
        spanId: "t2",
        parentSpanId: "r",
        kind: "tool",
        name: "b",
        tool: "b",
        startTs: T0 + 12,
        endTs: T0 + 40,
        error: "failed: boom",
      },
      {
        spanId: "m2",
        parentSpanId: "r",
        kind: "model",
        name: "chat m",
        model: "m",
        startTs: T0 + 55,
        endTs: T0 + 60,
        inputTokens: 200,
        outputTokens: 20,
      },
    ],
    events: [
      { seq: 1, ts: T0, spanId: "r", kind: "agent_start", payload: { input: "</script><script>alert(1)</script>" } },
    ],
  };
}

describe("the timeline puts parallel calls on separate lanes", () => {
  test("overlapping tool calls take two lanes; later calls reuse the first free lane", () => {
    const layout = layoutReport(data());
    const lane = (id: string) => layout.spans.find((s) => s.spanId === id)!.lane;
    assert.equal(lane("r"), 0);
    assert.equal(lane("m1"), 1);
    assert.equal(lane("t1"), 1);
    assert.equal(lane("t2"), 2);
    assert.equal(lane("m2"), 1);
    assert.equal(layout.lanes, 3);
  });
  test("figures: tokens by model, tool latency and errors", () => {
    const layout = layoutReport(data());
    assert.deepEqual(layout.models, [{ model: "m", calls: 2, inputTokens: 300, outputTokens: 30, p50Ms: 5, maxMs: 9 }]);
    assert.deepEqual(
      layout.tools.map((t) => [t.tool, t.calls, t.errors, t.maxMs]),
      [
        ["a", 1, 0, 39],
        ["b", 1, 1, 28],
      ],
    );
    assert.deepEqual(
      layout.errors.map((e) => e.message),
      ["failed: boom"],
    );
    assert.equal(layout.totals.toolCalls, 2);
  });
  test("an unfinished span runs to the end of the recording and is marked open", () => {
    const d = data();
    delete d.spans[2]!.endTs;
    const span = layoutReport(d).spans.find((s) => s.spanId === "t1")!;
    assert.equal(span.open, true);
    assert.equal(span.offsetMs + span.durationMs, 100);
  });
});

describe("recorded values cannot break out of the page", () => {
  test("payload text with </script> never reaches the markup: payloads travel packed, and the JSON blocks escape <", () => {
    const html = renderReportHtml(data());
    assert.equal(html.match(/<\/script>/g)!.length, 3, "only the page's own three script elements close");
    assert.ok(!html.includes("alert(1)"), "the payload is packed, not written into the page");
  });
  test("names are escaped in the static HTML", () => {
    const d = data();
    d.run.runId = "<b>run</b>";
    assert.ok(renderReportHtml(d).includes("&#60;b&#62;run&#60;/b&#62;"));
  });
});

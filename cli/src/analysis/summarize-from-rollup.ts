import { costOfModels, LatencySketch, type RunManifest, type RunRollup } from "@harnessx/recorder";
import { summaryReport, type RunSummaryReport } from "./run-summary-report.js";

/** True when `trace summary` may read the run's `rollup` instead of its events: an ended run of a store (a bundle's run.json is only a claim about its events). */
export function hasTrustedRollup(run: RunManifest, fromBundle: boolean): run is RunManifest & { rollup: RunRollup } {
  return (
    !fromBundle &&
    run.rollup !== undefined &&
    run.endedAt !== null &&
    run.endedAt !== undefined &&
    run.status !== "running"
  );
}

/** The figures of an ended run from its `run.json` alone (what the recorder rolled up as it recorded). */
export function summarizeFromRollup(run: RunManifest & { rollup: RunRollup }, source: string): RunSummaryReport {
  const { rollup } = run;
  const summary = run.summary;
  const byKind = summary?.byKind ?? {};
  const kinds = Object.keys({ ...byKind, ...rollup.bytesByKind }).map((kind) => ({
    kind,
    count: byKind[kind] ?? 0,
    bytes: rollup.bytesByKind[kind] ?? 0,
  }));
  return summaryReport(run, source, {
    events: summary?.events ?? 0,
    kinds,
    // A rollup written before cost was recorded knows no price: every call counts as unpriced.
    models: Object.entries(rollup.models).map(([model, m]) => ({
      model,
      calls: m.calls,
      inputTokens: m.inputTokens,
      outputTokens: m.outputTokens,
      cacheReadTokens: m.cacheReadTokens ?? null,
      cacheWriteTokens: m.cacheWriteTokens ?? null,
      costUsd: m.costUsd ?? null,
      unpricedCalls: costOfModels([m]).unpricedCalls,
    })),
    // A tool a reply asked for is listed once a call of it finished, as when the events are read.
    tools: Object.entries(rollup.tools)
      .filter(([, t]) => t.calls > 0)
      .map(([tool, t]) => ({
        tool,
        calls: t.calls,
        errors: t.errors,
        latency: LatencySketch.from(t.latency),
        costUsd: t.costUsd ?? null,
      })),
    spills: { ...rollup.spills },
    dropped: { events: summary?.dropped ?? 0, gaps: byKind["recorder.dropped"] ?? 0 },
    redactedValues: rollup.redactedValues,
  });
}

import { Command } from "commander";
import type { RunSummaryReport } from "../analysis/run-summary-report.js";
import { hasTrustedRollup, summarizeFromRollup } from "../analysis/summarize-from-rollup.js";
import { summarizeRun } from "../analysis/summary.js";
import type { CommandContext } from "../context.js";
import type { CommandSpec } from "../command-spec.js";
import { formatBytes, formatCost, formatCount, formatDuration } from "../output/format.js";
import { renderRows } from "../output/table.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { openTarget, sourcePath } from "../store/target.js";

function redactionText(redaction: unknown): string {
  if (redaction === "off") return "off";
  if (redaction && typeof redaction === "object") {
    const r = redaction as { keys?: unknown[]; patterns?: Array<{ name?: string }>; custom?: boolean };
    return terminalSafe(
      `${r.keys?.length ?? 0} sensitive keys, patterns ${(r.patterns ?? []).map((p) => p.name).join(", ") || "none"}${r.custom ? ", custom function" : ""}`,
    );
  }
  return "unknown";
}

type ModelRow = RunSummaryReport["models"][number];

function print(ctx: CommandContext, s: RunSummaryReport): void {
  const c = ctx.colors;
  const terminal = Boolean(ctx.io.stdout.isTTY);
  const status =
    s.status === "completed"
      ? c.green(s.status)
      : s.status === "failed" || s.status === "crashed"
        ? c.red(s.status)
        : c.yellow(s.status);
  ctx.print(
    `${c.bold("run")}       ${terminalSafe(`${s.runId}  (${s.agent}${s.framework ? `, made with ${s.framework}` : ""})`)}`,
  );
  ctx.print(
    `${c.bold("status")}    ${status}${s.error ? c.red(terminalSafe(`  ${s.error.name ?? "Error"}: ${s.error.message}`)) : ""}`,
  );
  ctx.print(`${c.bold("started")}   ${s.startedAt}   ${c.bold("duration")} ${formatDuration(s.durationMs)}`);
  ctx.print(
    `${c.bold("cost")}      ${formatCost(s.cost.usd)}${s.cost.unpricedCalls ? c.yellow(`  (${s.cost.unpricedCalls} model call(s) without a price: not counted)`) : ""}`,
  );
  if (s.cache.hitRate !== null) {
    ctx.print(
      `${c.bold("cache")}     ${(s.cache.hitRate * 100).toFixed(1)}% of input tokens read from the prompt cache (${formatCount(s.cache.readTokens)} read, ${formatCount(s.cache.writeTokens)} written)`,
    );
  }
  ctx.print(
    `${c.bold("events")}    ${formatCount(s.events)}   ${c.bold("dropped")} ${formatCount(s.dropped.events)}${s.dropped.gaps ? ` in ${s.dropped.gaps} gap(s)` : ""}   ${c.bold("spills")} ${s.spills.count} (${formatBytes(s.spills.bytes)})`,
  );
  ctx.print(`${c.bold("redaction")} ${redactionText(s.redaction)}; ${s.redactedValues} value(s) redacted`);
  if (s.extensions.length)
    ctx.print(`${c.bold("extensions")} ${terminalSafe(s.extensions.map((e) => `${e.name} [${e.level}]`).join(", "))}`);
  ctx.print("");
  ctx.print(c.bold("Events by kind"));
  ctx.print(
    renderRows(
      s.kinds,
      [
        { header: "KIND", value: (k) => k.kind },
        { header: "COUNT", value: (k) => k.count, format: (k) => formatCount(k.count), align: "right" },
        { header: "BYTES", value: (k) => k.bytes, format: (k) => formatBytes(k.bytes), align: "right" },
      ],
      { terminal },
    ),
  );
  ctx.print("");
  ctx.print(c.bold("Tokens by model"));
  ctx.print(
    s.models.length === 0
      ? "  (no model calls)"
      : renderRows(
          s.models,
          [
            { header: "MODEL", value: (m) => m.model },
            { header: "CALLS", value: (m) => m.calls, align: "right" },
            { header: "INPUT", value: (m) => m.inputTokens, format: (m) => formatCount(m.inputTokens), align: "right" },
            {
              header: "OUTPUT",
              value: (m) => m.outputTokens,
              format: (m) => formatCount(m.outputTokens),
              align: "right",
            },
            ...(s.cache.hitRate === null
              ? []
              : [
                  {
                    header: "CACHE READ",
                    value: (m: ModelRow) => m.cacheReadTokens ?? -1,
                    format: (m: ModelRow) => formatCount(m.cacheReadTokens),
                    align: "right" as const,
                  },
                  {
                    header: "CACHE WRITE",
                    value: (m: ModelRow) => m.cacheWriteTokens ?? -1,
                    format: (m: ModelRow) => formatCount(m.cacheWriteTokens),
                    align: "right" as const,
                  },
                ]),
            { header: "COST", value: (m) => m.costUsd ?? -1, format: (m) => formatCost(m.costUsd), align: "right" },
          ],
          { terminal },
        ),
  );
  ctx.print("");
  ctx.print(c.bold("Tools"));
  ctx.print(
    s.tools.length === 0
      ? "  (no tool calls)"
      : renderRows(
          s.tools,
          [
            { header: "TOOL", value: (t) => t.tool },
            { header: "CALLS", value: (t) => t.calls, align: "right" },
            {
              header: "ERRORS",
              value: (t) => t.errors,
              format: (t) => (t.errors ? c.red(String(t.errors)) : "0"),
              align: "right",
            },
            { header: "P50", value: (t) => t.p50Ms, format: (t) => formatDuration(t.p50Ms), align: "right" },
            { header: "P95", value: (t) => t.p95Ms, format: (t) => formatDuration(t.p95Ms), align: "right" },
            { header: "MAX", value: (t) => t.maxMs, format: (t) => formatDuration(t.maxMs), align: "right" },
            // The model calls that asked for the tool, each reply's cost shared among its tool calls.
            {
              header: "MODEL COST",
              value: (t) => t.costUsd ?? -1,
              format: (t) => formatCost(t.costUsd),
              align: "right",
            },
          ],
          { terminal },
        ),
  );
}

/** `trace summary <run>`: status, duration, cost and prompt-cache hit rate, counts and bytes by kind, tokens, tool latency, spills, drops, redaction. */
export const summaryCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("summary")
      .description("status, duration, events by kind, tokens by model, tool latency and errors")
      .argument("<run>", "run id (or unique prefix), run directory or bundle file"),
  async run(ctx, [text]) {
    await using recording = await openTarget(ctx, text);
    const show = (summary: RunSummaryReport) => (ctx.options.json ? ctx.printJson(summary) : print(ctx, summary));
    if (recording.run.detail === "summary")
      ctx.note("this run's events were deleted by tail retention (retain): the figures come from its run.json");
    // An ended run of a store carries its rollup: run.json alone answers, at any length of run.
    if (hasTrustedRollup(recording.run, recording.source.kind === "bundle"))
      return show(summarizeFromRollup(recording.run, sourcePath(recording)));
    // The summary reads events and lines only: the spans table (built in JavaScript) is not needed.
    const tables = await recording.database({ spans: false });
    try {
      show(await summarizeRun(tables, recording.run, sourcePath(recording)));
    } finally {
      tables.close();
    }
  },
};

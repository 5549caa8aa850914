import { Command } from "commander";
import { diffRuns, type AlignedStep, type RunDiff, type RunTotals, type Step } from "../analysis/run-diff.js";
import type { CommandSpec } from "../command-spec.js";
import type { CommandContext } from "../context.js";
import { CliError, ExitCode } from "../errors.js";
import { cut, formatCost, formatDuration } from "../output/format.js";
import type { Column } from "../output/table.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { openTarget } from "../store/target.js";

/** Model calls shown around the first difference (all of them with --json). */
const WINDOW = 12;

const value = (text: unknown) => cut(JSON.stringify(text) ?? "undefined", 160);
const signed = (n: number, unit = "") => `${n > 0 ? "+" : ""}${Number.isInteger(n) ? n : n.toFixed(1)}${unit}`;

function totalsLine(label: string, t: RunTotals): string {
  const duration = t.durationMs === null ? "still running" : formatDuration(t.durationMs);
  return `${label} ${t.runId}: ${t.status}, ${t.modelCalls} model calls, ${t.toolCalls} tool calls, ${t.errors} error${t.errors === 1 ? "" : "s"}, tokens in ${t.inputTokens} out ${t.outputTokens}, cost ${formatCost(t.costUsd)}, ${duration}`;
}

const STEP_COLUMNS: Column<AlignedStep>[] = [
  { header: "call", value: (s) => s.call, align: "right" },
  { header: "tokens in A/B", value: (s) => `${s.a?.inputTokens ?? "-"}/${s.b?.inputTokens ?? "-"}`, align: "right" },
  { header: "Δ in", value: (s) => (s.delta ? signed(s.delta.inputTokens) : "-"), align: "right" },
  { header: "tokens out A/B", value: (s) => `${s.a?.outputTokens ?? "-"}/${s.b?.outputTokens ?? "-"}`, align: "right" },
  { header: "Δ out", value: (s) => (s.delta ? signed(s.delta.outputTokens) : "-"), align: "right" },
  {
    header: "cost A/B",
    value: (s) => `${s.a ? formatCost(s.a.costUsd) : "-"}/${s.b ? formatCost(s.b.costUsd) : "-"}`,
    align: "right",
  },
  { header: "Δ cost", value: (s) => deltaCost(s.delta?.costUsd), align: "right" },
  { header: "model ms A/B", value: (s) => `${ms(s.a, "modelMs")}/${ms(s.b, "modelMs")}`, align: "right" },
  { header: "tools A/B", value: (s) => `${s.a?.toolCalls ?? "-"}/${s.b?.toolCalls ?? "-"}`, align: "right" },
  { header: "tool ms A/B", value: (s) => `${ms(s.a, "toolMs")}/${ms(s.b, "toolMs")}`, align: "right" },
  { header: "errors A/B", value: (s) => `${s.a?.errors ?? "-"}/${s.b?.errors ?? "-"}`, align: "right" },
];

function deltaCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "-";
  return usd === 0 ? "$0" : `${usd < 0 ? "-" : "+"}${formatCost(Math.abs(usd))}`;
}

function ms(step: Step | null, key: "modelMs" | "toolMs"): string {
  return step ? step[key].toFixed(1) : "-";
}

function print(ctx: CommandContext, d: RunDiff): void {
  const line = (text: string) => ctx.print(terminalSafe(text));
  line(totalsLine("A", d.a));
  line(totalsLine("B", d.b));
  if (d.same) {
    ctx.print(ctx.colors.green("same: requests, tool results, configuration and status agree"));
    return;
  }
  if (d.configDifferences.length) {
    line(`configuration (${d.configDifferences.length}):`);
    for (const difference of d.configDifferences) line(`  ${difference}`);
  }
  const request = d.firstRequestChange;
  if (request) {
    line(
      `first request difference: model call ${request.call} (A event #${request.seqA ?? "-"}, B event #${request.seqB ?? "-"}), at ${request.path}`,
    );
    line(`  A: ${value(request.a)}`);
    line(`  B: ${value(request.b)}`);
  }
  const tool = d.firstToolResultChange;
  if (tool) {
    line(
      `first tool result difference: tool call ${tool.index}${tool.toolCallId ? ` (${tool.toolCallId})` : ""} after model call ${tool.call}, ${tool.field}`,
    );
    line(`  A: ${value(tool.a)}`);
    line(`  B: ${value(tool.b)}`);
  }
  const first = Math.min(request?.call ?? Infinity, tool?.call ?? Infinity, d.steps.length);
  const from = Math.max(0, (Number.isFinite(first) ? first : 1) - 3);
  const window = d.steps.slice(from, from + WINDOW);
  if (window.length) {
    line(`model calls ${window[0]!.call}-${window.at(-1)!.call} of ${d.steps.length} (B minus A):`);
    ctx.printRows(window, STEP_COLUMNS);
  }
}

/** `trace diff <runA> <runB>`: two runs of the same agent side by side, with where they first part. */
export const diffCommand: CommandSpec<[runA: string, runB: string]> = {
  define: () =>
    new Command("diff")
      .description(
        "compare two runs (e.g. a good run and a failed one, or a run and its replay): configuration, first differing request and tool result, per-call token and latency deltas; exit 1 when they differ",
      )
      .argument("<runA>", "run id (or unique prefix), run directory or bundle file")
      .argument("<runB>", "the run to compare with it"),
  async run(ctx, [textA, textB]) {
    await using recordingA = await openTarget(ctx, textA);
    await using recordingB = await openTarget(ctx, textB);
    const [eventsA, eventsB] = await Promise.all([
      recordingA.readEvents({ payloads: true }),
      recordingB.readEvents({ payloads: true }),
    ]);
    const diff = diffRuns({ run: recordingA.run, events: eventsA }, { run: recordingB.run, events: eventsB });
    if (ctx.options.json) ctx.printJson(diff);
    else print(ctx, diff);
    if (!diff.same) throw new CliError(ExitCode.FAILURE, "runs_differ", `${diff.a.runId} and ${diff.b.runId} differ`);
  },
};

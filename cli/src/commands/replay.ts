import { Command } from "commander";
import type { CommandSpec } from "../command-spec.js";
import { CliError, ExitCode } from "../errors.js";
import { cut, fewNames } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { replayRun, type ReplayReport } from "../replay/replay-run.js";
import { openTarget } from "../store/target.js";
import type { CommandContext } from "../context.js";

function printReport(ctx: CommandContext, r: ReplayReport): void {
  const c = ctx.colors;
  // Ids, paths, values and errors come from the recording (or the rerun of it): printed safe.
  const line = (text: string) => ctx.print(terminalSafe(text));
  const settings = () => {
    if (!r.configRecorded)
      line("  the recording holds no agent configuration (an older recorder): the agent was rebuilt with the defaults");
    if (r.configDifferences.length === 0) return;
    line(`  configuration differs from the recording (${r.configDifferences.length}):`);
    for (const difference of r.configDifferences) line(`    ${difference}`);
  };
  if (r.reproduced) {
    ctx.print(
      `${c.green("reproduced")} ${terminalSafe(`run ${r.runId}: ${r.replayedCalls}/${r.recordedCalls} model calls matched the recording, status ${r.replayedStatus}`)}`,
    );
    settings();
    return;
  }
  ctx.print(
    `${c.red("diverged")} ${terminalSafe(`run ${r.runId}: ${r.replayedCalls} of ${r.recordedCalls} recorded model calls replayed, status ${r.replayedStatus} (recorded ${r.recordedStatus})`)}`,
  );
  if (r.divergence) {
    const d = r.divergence;
    line(`  first divergence at model call ${d.call + 1} (recorded event #${d.recordedSeq}), at ${d.path}`);
    line(`    recorded: ${cut(JSON.stringify(d.recorded) ?? "undefined", 200)}`);
    line(`    replayed: ${cut(JSON.stringify(d.actual) ?? "undefined", 200)}`);
  }
  if (r.unmatchedToolCalls.length) line(`  tool calls with no recorded result: ${r.unmatchedToolCalls.join(", ")}`);
  if (r.unappliedPatterns.length) {
    line(
      `  the recording names redaction pattern(s) this replay does not apply (${fewNames(r.unappliedPatterns)}): a recording's patterns are never run; --agent <module> compares with your agent's policy`,
    );
  }
  if (!r.textMatches) line("  the final answer differs from the recorded one");
  if (r.error) line(`  rerun error: ${r.error}`);
  settings();
}

/** `trace replay <run|bundle>`: rerun the recorded conversation and report whether it reproduces. */
export const replayCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("replay")
      .description(
        "rerun the recorded conversation (recorded model replies and tool results); exit 0 when it reproduces, 1 when it diverges",
      )
      .argument("<run>", "run id (or unique prefix), run directory or bundle file")
      .option(
        "--agent <module>",
        "a JS module exporting createAgent({ provider, tools, model, name }): rerun your (changed) agent code",
      ),
  async run(ctx, [text], options) {
    await using recording = await openTarget(ctx, text);
    const report = await replayRun(recording, typeof options.agent === "string" ? ctx.path(options.agent) : undefined);
    if (ctx.options.json) ctx.printJson(report);
    else printReport(ctx, report);
    if (!report.reproduced) {
      const where = report.divergence ? `at model call ${report.divergence.call + 1} (${report.divergence.path})` : "";
      throw new CliError(ExitCode.FAILURE, "replay_diverged", `replay of ${report.runId} diverged ${where}`.trim());
    }
  },
};

import { Command } from "commander";
import { ResumeError, type Agent, type ApprovalDecision, type RunResult } from "@harnessx/core";
import { buildAgent } from "../agent/agent-module.js";
import type { CommandSpec } from "../command-spec.js";
import type { CommandContext } from "../context.js";
import { CliError, ExitCode, usageError } from "../errors.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { resolveTarget } from "../store/target.js";

/** What `trace resume --agent <module>` passes to the module's `createAgent`. */
export interface ResumeAgentParts {
  /** The run to resume: the module builds the agent that journaled it (same tools, same durable store). */
  resume: string;
}

const EXIT_OF_PROBLEM: Record<ResumeError["problem"], ExitCode> = {
  durable_off: ExitCode.INVALID_INPUT,
  bad_run_id: ExitCode.USAGE,
  not_journaled: ExitCode.NOT_FOUND,
  already_ended: ExitCode.OK,
  journal_corrupt: ExitCode.INVALID_INPUT,
  journal_foreign: ExitCode.INVALID_INPUT,
  journal_too_large: ExitCode.INVALID_INPUT,
  journal_not_a_file: ExitCode.INVALID_INPUT,
};

/** The run id a `<run>` argument names: a recorded run's id (a prefix or folder works), else the text itself (a run only journaled). */
async function runIdOf(ctx: CommandContext, text: string): Promise<string> {
  const target = await resolveTarget(ctx, text, { bundles: false }).catch(() => undefined);
  return target?.kind === "run" ? target.runId : text;
}

function decisionsOf(options: Record<string, unknown>): Record<string, ApprovalDecision> {
  const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
  const decisions: Record<string, ApprovalDecision> = {};
  for (const id of list(options.approve)) decisions[id] = "approve";
  for (const id of list(options.deny)) {
    if (decisions[id]) throw usageError(`call ${id} is both approved and denied`);
    decisions[id] = "deny";
  }
  return decisions;
}

/** Resumes, then answers the waits the user decided ahead; stops at a wait with an undecided call. */
async function resumeDeciding(
  agent: Agent,
  runId: string,
  decisions: Record<string, ApprovalDecision>,
): Promise<RunResult> {
  let result = await agent.resume(runId);
  while (result.status === "awaiting_approval" && result.pending.every((p) => p.id in decisions)) {
    result = await agent.resume(Object.fromEntries(result.pending.map((p) => [p.id, decisions[p.id]!])));
  }
  return result;
}

function report(ctx: CommandContext, result: RunResult): void {
  const c = ctx.colors;
  const status =
    result.status === "completed"
      ? c.green(result.status)
      : result.status === "awaiting_approval"
        ? c.yellow(result.status)
        : c.red(result.status);
  ctx.print(`${terminalSafe(result.runId)}: ${status}, ${result.modelCalls} model call(s) in all`);
  if (result.text) ctx.print(terminalSafe(result.text));
  if (result.error) ctx.print(terminalSafe(`error: ${result.error.message}`));
  for (const p of result.pending) ctx.print(terminalSafe(`  waiting: ${p.id} ${p.toolCall.name} (${p.reason})`));
}

/** `trace resume <run> --agent <module>`: rebuild a durable run from its journal and let it go on. */
export const resumeCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("resume")
      .description(
        "continue a durable run whose process died, from its last committed phase (exit 0 when it completes)",
      )
      .argument("<run>", "run id (or unique prefix of a recorded run)")
      .requiredOption(
        "--agent <module>",
        "a JS module exporting createAgent({ resume }) that returns the agent which journaled the run (its tools and durable store)",
      )
      .option("--approve <ids...>", "approve these waiting calls when the run asks")
      .option("--deny <ids...>", "deny these waiting calls when the run asks"),
  async run(ctx, [text], options) {
    const decisions = decisionsOf(options);
    const runId = await runIdOf(ctx, text);
    const agent = await buildAgent<ResumeAgentParts>(ctx.path(String(options.agent)), { resume: runId });
    let result: RunResult;
    try {
      result = await resumeDeciding(agent, runId, decisions);
    } catch (error) {
      if (!(error instanceof ResumeError)) throw error;
      if (error.problem === "already_ended") return ctx.print(terminalSafe(error.message));
      throw new CliError(EXIT_OF_PROBLEM[error.problem], error.code, error.message);
    } finally {
      await agent.close();
    }
    if (ctx.options.json)
      ctx.printJson({
        runId: result.runId,
        status: result.status,
        text: result.text,
        pending: result.pending,
        modelCalls: result.modelCalls,
        usage: result.usage,
        ...(result.error ? { error: { code: result.error.code, message: result.error.message } } : {}),
      });
    else report(ctx, result);
    if (result.status === "awaiting_approval") {
      const ids = result.pending.map((p) => p.id).join(" ");
      throw new CliError(
        ExitCode.FAILURE,
        "awaiting_approval",
        `${result.runId} waits for approval of ${ids}: run trace resume again with --approve ${ids} (or --deny)`,
      );
    }
    if (result.status !== "completed")
      throw new CliError(ExitCode.FAILURE, `run_${result.status}`, `${result.runId} ended ${result.status}`);
  },
};

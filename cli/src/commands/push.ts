import { Command, Option } from "commander";
import type { PushResult } from "@harnessx/exporters/convert";
import type { CommandSpec } from "../command-spec.js";
import { CliError, ExitCode, usageError } from "../errors.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { openTarget } from "../store/target.js";
import { loadConverters, loadLangSmith } from "./load-exporters.js";

function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw usageError(`--timeout must be a positive number of seconds, got "${value}"`);
  return n;
}

/** `trace push <run|bundle> --otlp URL | --langsmith`: send the run through the exporters, report sent and failed. */
export const pushCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("push")
      .description(
        "send a run to an OTLP/HTTP endpoint or to LangSmith (LANGSMITH_* variables); reports what was sent and what failed",
      )
      .argument("<run>", "run id (or unique prefix), run directory or bundle file")
      .option("--otlp <url>", "OTLP/HTTP traces URL, e.g. http://localhost:4318/v1/traces")
      .option("--langsmith", "LangSmith through its Client (LANGSMITH_API_KEY, LANGSMITH_ENDPOINT, LANGSMITH_PROJECT)")
      .option("--project <name>", "LangSmith project (default LANGSMITH_PROJECT, else harnessx)")
      .addOption(
        new Option("--timeout <seconds>", "give up on the target after this long")
          .default(10)
          .argParser(positiveSeconds),
      ),
  async run(ctx, [text], options) {
    const otlp = typeof options.otlp === "string" ? options.otlp : undefined;
    if (!otlp === !options.langsmith) throw usageError("choose one target: --otlp URL or --langsmith");
    if (otlp && !/^https?:\/\/[^/]/.test(otlp)) throw usageError(`--otlp needs an http(s) URL, got "${otlp}"`);
    // The exporters are loaded on demand, each target from its own entry: an OTLP push never loads `langsmith`.
    // Without a key every upload would be refused: stop before the first request instead of reporting runs lost.
    if (!otlp && !(await loadLangSmith()).hasLangSmithCredentials())
      throw usageError("--langsmith needs a LangSmith API key: set LANGSMITH_API_KEY (nothing was sent)");
    await using recording = await openTarget(ctx, text);
    const { events } = await recording.traceEvents();
    const timeoutMs = Number(options.timeout) * 1000;
    const agent = { name: recording.run.agent, sessionId: recording.run.sessionId };
    const targetName = otlp ?? `LangSmith (${ctx.io.env.LANGSMITH_ENDPOINT ?? "default endpoint"})`;
    const progress = ctx.progress(`push to ${otlp ? "OTLP" : "LangSmith"}`, "steps");
    progress.total(1);
    let result: PushResult;
    try {
      result = otlp
        ? await (await loadConverters("trace push --otlp")).pushToOtlp(events, { url: otlp, timeoutMs, agent })
        : await (await loadLangSmith()).pushToLangSmith(events, {
            timeoutMs,
            agent,
            ...(typeof options.project === "string" ? { projectName: options.project } : {}),
          });
    } finally {
      progress.tick();
      progress.stop();
    }
    const unit = otlp ? "spans" : "runs";
    const summary = { target: targetName, runId: recording.run.runId, unit, sent: result.sent, failed: result.failed };
    if (ctx.options.json) ctx.printJson(summary);
    if (result.failed > 0 && result.sent === 0) {
      throw new CliError(
        ExitCode.UNREACHABLE,
        "push_unreachable",
        `could not deliver to ${targetName} within ${options.timeout}s: 0 ${unit} sent, ${result.failed} failed (unreachable or refusing)`,
      );
    }
    if (result.failed > 0)
      throw new CliError(
        ExitCode.FAILURE,
        "push_incomplete",
        `pushed to ${targetName}: ${result.sent} ${unit} sent, ${result.failed} failed`,
      );
    if (!ctx.options.json)
      ctx.print(
        terminalSafe(`pushed run ${recording.run.runId} to ${targetName}: ${result.sent} ${unit} sent, 0 failed`),
      );
  },
};

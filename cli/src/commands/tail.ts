import { Command } from "commander";
import { followRun, type RecordedEvent } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import type { CommandContext } from "../context.js";
import { notFound, usageError } from "../errors.js";
import { wholeNumber } from "../option-values.js";
import { stringifyJson } from "../output/json.js";
import { listRuns } from "../store/runs.js";
import { ensureStore, resolveTarget } from "../store/target.js";
import { EventFilter } from "../timeline/event-filter.js";
import { eventJson, eventLine } from "../timeline/event-line.js";
import { SpanNesting } from "../timeline/nesting.js";

/** The run directory `tail` reads: the named run, or with `--latest` the one that started last. */
async function runDirOf(ctx: CommandContext, text: string | undefined, latest: boolean): Promise<string> {
  if (latest === (text !== undefined)) throw usageError("name one run, or pass --latest for the run that started last");
  if (text !== undefined) {
    const target = await resolveTarget(ctx, text, { bundles: false });
    if (target.kind !== "run") throw usageError(`${text} is a bundle: a bundle is complete, read it with trace show`);
    return target.runDir;
  }
  const { runs } = await listRuns(await ensureStore(ctx));
  const newest = runs.reduce<(typeof runs)[number] | undefined>(
    (best, run) => (!best || run.startedAt > best.startedAt ? run : best),
    undefined,
  );
  if (!newest) throw notFound(`no runs in ${ctx.options.store} yet`);
  return newest.dir;
}

/** `trace tail <run|--latest> [--follow]`: the last events of a run, then (with --follow) each new one as the recorder writes it. */
export const tailCommand: CommandSpec = {
  define: () =>
    new Command("tail")
      .description(
        "the last events of a run; with --follow, each new one as it is written, until the run ends (a live run is readable while it runs)",
      )
      .argument("[run]", "run id (or unique prefix) or run directory")
      .option("--latest", "the run that started last in the store")
      .option("-f, --follow", "keep printing events as the recorder writes them, until the run ends (Ctrl-C stops)")
      .option("-n, --lines <n>", "how many of the events already written to print first", "20")
      .option("--kind <kinds>", "only these event kinds (comma-separated, e.g. tool_call_end,error)")
      .option("--tool <name>", "only the calls of this tool (and the events inside them)")
      .option("--errors", "only errors: ERROR events, failed tool calls, a failed run, dropped events"),
  async run(ctx, [text], options) {
    const runDir = await runDirOf(ctx, text, Boolean(options.latest));
    const backlogSize = wholeNumber("--lines", String(options.lines), 0);
    const filter = new EventFilter(options);
    const nesting = new SpanNesting();
    let start: number | undefined;
    const print = (event: RecordedEvent, depth: number) =>
      ctx.print(
        ctx.options.json
          ? stringifyJson(eventJson(event, depth, start!), false)
          : eventLine(ctx.colors, event, depth, start!),
      );
    // Until the reader has caught up with what is on disk, only the last `--lines` matches are kept.
    let backlog: Array<[RecordedEvent, number]> | undefined = [];
    const flushBacklog = () => {
      for (const [event, depth] of backlog?.slice(-backlogSize) ?? []) print(event, depth);
      backlog = undefined;
    };
    const stop = new AbortController();
    const interrupt = () => stop.abort();
    process.once("SIGINT", interrupt);
    try {
      for await (const event of followRun(runDir, {
        follow: Boolean(options.follow),
        signal: stop.signal,
        onCaughtUp: flushBacklog,
      })) {
        start ??= event.ts;
        nesting.note(event);
        if (!filter.keeps(event)) continue;
        const depth = nesting.depthOf(event);
        if (!backlog) print(event, depth);
        else if (backlogSize > 0) {
          backlog.push([event, depth]);
          if (backlog.length > 2 * backlogSize) backlog = backlog.slice(-backlogSize);
        }
      }
      flushBacklog();
    } finally {
      process.off("SIGINT", interrupt);
    }
  },
};

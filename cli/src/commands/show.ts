import { Command } from "commander";
import { isFailureEvent, type RecordedEvent } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { wholeNumber } from "../option-values.js";
import { stringifyJson } from "../output/json.js";
import { openTarget } from "../store/target.js";
import { describeConfig, describeTools } from "../timeline/agent-config.js";
import { EventFilter } from "../timeline/event-filter.js";
import { eventJson, eventLine } from "../timeline/event-line.js";
import { describeExtensions } from "../timeline/extensions.js";
import { SpanNesting } from "../timeline/nesting.js";
import { LinkedRuns } from "../timeline/linked-runs.js";
import { ResumeGaps } from "../timeline/resume-gap.js";

/** `trace show <run>`: the timeline, one line per event, nested by span. */
export const showCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("show")
      .description("the run's timeline: one line per event, nested by span, with durations; errors highlighted")
      .argument("<run>", "run id (or unique prefix), run directory or bundle file")
      .option("--kind <kinds>", "only these event kinds (comma-separated, e.g. tool_call_end,error)")
      .option("--tool <name>", "only the calls of this tool (and the events inside them)")
      .option("--errors", "only errors: ERROR events, failed tool calls, a failed run, dropped events")
      .option("--full", "print each event's payload (stored artifacts are read on demand)")
      .option("--from <seq>", "start at this event number (#seq), to page through a long run")
      .option("--limit <n>", "show at most this many events (the note after them names the next --from)"),
  async run(ctx, [text], options) {
    await using recording = await openTarget(ctx, text);
    // Subagents' runs are expanded inline under the tool call that ran each.
    await using linked = await LinkedRuns.of(recording);
    const filter = new EventFilter(options, Object.keys(recording.summary.byKind ?? {}));
    const from = typeof options.from === "string" ? wholeNumber("--from", options.from, 0) : 0;
    const limit = typeof options.limit === "string" ? wholeNumber("--limit", options.limit, 1) : Infinity;
    // Streamed: a page of a long run reads only as far as the page, and no list of every event is kept.
    const nesting = new SpanNesting();
    const gaps = new ResumeGaps();
    const selected: Array<{ e: RecordedEvent; depth: number; gap: number | undefined }> = [];
    let start: number | undefined;
    let next: number | undefined;
    // Payloads are read only where a line shows them: --full, and what a failure said (a failed call's error result).
    const skipPayloads = options.full ? false : (event: RecordedEvent) => !isFailureEvent(event);
    for await (const e of recording.events({ skipPayloads, readAhead: limit === Infinity })) {
      start ??= e.ts;
      nesting.note(e);
      const gap = gaps.note(e);
      if (!filter.keeps(e) || e.seq < from) continue;
      if (selected.length === limit) {
        next = e.seq;
        break;
      }
      selected.push({ e, depth: nesting.depthOf(e), gap });
    }
    start ??= recording.run.startedAt;
    if (next === undefined) {
      // Read to the end: what had to be skipped on the way is known.
      const integrity = await recording.integrity();
      const bad = integrity.firstBadLine;
      if (bad)
        ctx.note(
          `skipped ${integrity.badLines} damaged line(s) that are not events (first: ${bad.segment} line ${bad.line}: ${bad.problem})`,
        );
    }
    const paging =
      next === undefined
        ? undefined
        : `showing ${selected.length} matching events from #${selected[0]!.e.seq}; --from ${next} for the next ones`;
    if (ctx.options.json) {
      const out = [];
      for (const { e, depth, gap } of selected) {
        const linkedRuns = await linked.json(e, depth, start);
        out.push({
          ...eventJson(e, depth, start, gap),
          ...(options.full
            ? { payload: await recording.payloadOf(e) }
            : e.payloadRef
              ? { payloadRef: e.payloadRef }
              : {}),
          ...(linkedRuns ? { linkedRuns } : {}),
        });
      }
      ctx.printJson(out);
      if (paging) ctx.note(paging);
      return;
    }
    const c = ctx.colors;
    const extensions = recording.run.extensions ?? [];
    if (extensions.length) {
      ctx.print(c.bold(`extensions (${extensions.length})`));
      for (const line of describeExtensions(extensions)) ctx.print(`  ${line}`);
      ctx.print("");
    }
    const config = describeConfig(recording.run.config, recording.run.provider);
    if (config.length) {
      ctx.print(c.bold("config"));
      for (const line of config) ctx.print(`  ${line}`);
      ctx.print("");
    }
    const tools = describeTools(recording.run.tools);
    if (tools.length) {
      ctx.print(c.bold(`tools (${tools.length})`));
      for (const line of tools) ctx.print(`  ${line}`);
      ctx.print("");
    }
    if (selected.length === 0) ctx.note("no events match");
    for (const { e, depth, gap } of selected) {
      ctx.print(eventLine(c, e, depth, start, gap));
      if (options.full) {
        const payload = await recording.payloadOf(e);
        const body = stringifyJson(payload === undefined ? null : payload);
        ctx.print(
          body
            .split("\n")
            .map((l) => `${" ".repeat(18)}${"  ".repeat(depth)}${c.dim(l)}`)
            .join("\n"),
        );
      }
      for await (const line of linked.lines(c, e, depth, start)) ctx.print(line);
    }
    if (paging) ctx.note(paging);
  },
};

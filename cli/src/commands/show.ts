import { Command } from "commander";
import { KNOWN_EVENT_KINDS, type RecordedEvent } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { choiceList, wholeNumber } from "../option-values.js";
import { formatDuration } from "../output/format.js";
import { stringifyJson } from "../output/json.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { openTarget } from "../store/target.js";
import { describeEvent, durationOf, isErrorEvent, toolOf } from "../timeline/describe.js";
import { describeConfig } from "../timeline/agent-config.js";
import { describeExtensions } from "../timeline/extensions.js";
import { depthsOf, owningSpan } from "../timeline/nesting.js";

/** `trace show <run>`: the timeline, one line per event, nested by span. */
export const showCommand: CommandSpec = {
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
    const events = await recording.readEvents();
    const integrity = await recording.integrity();
    const bad = integrity.firstBadLine;
    if (bad) ctx.note(`skipped ${integrity.badLines} damaged line(s) that are not events (first: ${bad.segment} line ${bad.line}: ${bad.problem})`);
    const depths = depthsOf(events);
    const start = events[0]?.ts ?? recording.run.startedAt;
    // Kinds this version writes, and any a newer recorder wrote into this run.
    const kinds = typeof options.kind === "string" ? choiceList("--kind", options.kind, [...new Set([...KNOWN_EVENT_KINDS, ...events.map((e) => e.kind)])]) : undefined;
    const toolSpans = new Set<string>();
    if (typeof options.tool === "string") {
      for (const e of events) if (e.spanId && toolOf(e) === options.tool) toolSpans.add(e.spanId);
    }
    const keep = (e: RecordedEvent): boolean => {
      if (kinds && !kinds.has(e.kind)) return false;
      if (typeof options.tool === "string" && !toolSpans.has(owningSpan(e) ?? "")) return false;
      if (options.errors && !isErrorEvent(e)) return false;
      return true;
    };
    const from = typeof options.from === "string" ? wholeNumber("--from", options.from, 0) : 0;
    const limit = typeof options.limit === "string" ? wholeNumber("--limit", options.limit, 1) : Infinity;
    const matching = events.map((e, i) => ({ e, depth: depths[i] })).filter(({ e }) => e.seq >= from && keep(e));
    const selected = matching.length > limit ? matching.slice(0, limit) : matching;
    const paging = matching.length > selected.length ? `showing ${selected.length} of ${matching.length} matching events; --from ${matching[selected.length].e.seq} for the next ones` : undefined;
    if (ctx.options.json) {
      const out = [];
      for (const { e, depth } of selected) {
        out.push({
          seq: e.seq,
          ts: new Date(e.ts).toISOString(),
          offsetMs: e.ts - start,
          depth,
          kind: e.kind,
          spanId: e.spanId,
          parentSpanId: e.parentSpanId,
          summary: describeEvent(e),
          error: isErrorEvent(e),
          attrs: e.attrs,
          ...(e.redacted?.length ? { redacted: e.redacted } : {}),
          ...(options.full ? { payload: await recording.payloadOf(e) } : e.payloadRef ? { payloadRef: e.payloadRef } : {}),
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
    const config = describeConfig(recording.run.config);
    if (config.length) {
      ctx.print(c.bold("config"));
      for (const line of config) ctx.print(`  ${line}`);
      ctx.print("");
    }
    if (selected.length === 0) ctx.note("no events match");
    for (const { e, depth } of selected) {
      const error = isErrorEvent(e);
      const offset = `+${formatDuration(e.ts - start)}`.padStart(10);
      const indent = "  ".repeat(depth);
      const duration = durationOf(e);
      const name = terminalSafe(e.kind);
      const kind = error ? c.red(c.bold(name)) : e.spanId ? c.cyan(name) : name;
      const detail = describeEvent(e);
      const line = `${c.dim(`#${String(e.seq).padEnd(5)}`)} ${c.dim(offset)} ${indent}${error ? c.red("✗ ") : ""}${kind}${detail ? `  ${error ? c.red(detail) : detail}` : ""}${duration !== undefined ? c.dim(`  ${formatDuration(duration)}`) : ""}`;
      ctx.print(line);
      if (options.full) {
        const payload = await recording.payloadOf(e);
        const body = stringifyJson(payload === undefined ? null : payload);
        ctx.print(body.split("\n").map((l) => `${" ".repeat(18)}${indent}${c.dim(l)}`).join("\n"));
      }
    }
    if (paging) ctx.note(paging);
  },
};

import { isFailureEvent, type RecordedEvent, type Recording } from "@harnessx/recorder";
import type { Colors } from "../output/colors.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { eventJson, eventLine } from "./event-line.js";
import { SpanNesting } from "./nesting.js";

/** Subagents of subagents are shown this deep; a deeper chain is named, not expanded. */
const MAX_DEPTH = 8;

/** Payloads are read only where a line shows them: what a failure said. */
const skipPayloads = (event: RecordedEvent) => !isFailureEvent(event);

/**
 * The runs a run's tool calls started (subagents' runs, linked by `parentRunId`), by the
 * `execute_tool` span each hangs under: `trace show` prints each one inline, indented, right
 * after the start of the tool call that ran it, and the runs those started in turn.
 */
export class LinkedRuns implements AsyncDisposable {
  private constructor(
    private readonly bySpan: Map<string, Recording[]>,
    private readonly level: number,
  ) {}

  static async of(recording: Recording, level = 0): Promise<LinkedRuns> {
    const bySpan = new Map<string, Recording[]>();
    for (const child of level < MAX_DEPTH ? await recording.linkedRuns() : []) {
      const span = child.run.parentSpanId ?? "";
      bySpan.set(span, [...(bySpan.get(span) ?? []), child]);
    }
    return new LinkedRuns(bySpan, level);
  }

  /** The runs started under `event`'s tool call, when it is the call's start. */
  private under(event: RecordedEvent): Recording[] {
    return event.kind === "tool_call_start" && event.spanId ? (this.bySpan.get(event.spanId) ?? []) : [];
  }

  /** Text lines of the runs started by the call `event` starts, at `depth` + 1 and deeper (times from the top run's `start`). */
  async *lines(c: Colors, event: RecordedEvent, depth: number, start: number): AsyncGenerator<string> {
    for (const child of this.under(event)) {
      const run = child.run;
      const head = `${run.status === "failed" || run.status === "cancelled" ? c.red("✗ ") : ""}${c.bold(`subagent run ${terminalSafe(run.runId)}`)}  ${terminalSafe(run.agent)}, ${run.status}`;
      yield `${" ".repeat(17)}${"  ".repeat(depth + 1)}↳ ${head}`;
      const nesting = new SpanNesting();
      await using deeper = await LinkedRuns.of(child, this.level + 1);
      for await (const e of child.events({ skipPayloads })) {
        nesting.note(e);
        const at = depth + 1 + nesting.depthOf(e);
        yield eventLine(c, e, at, start);
        yield* deeper.lines(c, e, at, start);
      }
    }
  }

  /** The same runs as `--json` gives them: each with its events (same fields as the top run's, depth continued). */
  async json(event: RecordedEvent, depth: number, start: number): Promise<Array<Record<string, unknown>> | undefined> {
    const children = this.under(event);
    if (children.length === 0) return undefined;
    const out = [];
    for (const child of children) {
      const nesting = new SpanNesting();
      await using deeper = await LinkedRuns.of(child, this.level + 1);
      const events = [];
      for await (const e of child.events({ skipPayloads })) {
        nesting.note(e);
        const at = depth + 1 + nesting.depthOf(e);
        const linked = await deeper.json(e, at, start);
        events.push({ ...eventJson(e, at, start), ...(linked ? { linkedRuns: linked } : {}) });
      }
      out.push({
        runId: child.run.runId,
        agent: child.run.agent,
        status: child.run.status,
        parentSpanId: child.run.parentSpanId,
        events,
      });
    }
    return out;
  }

  /** Closes every linked recording opened. */
  async close(): Promise<void> {
    await Promise.all([...this.bySpan.values()].flat().map((r) => r.close()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

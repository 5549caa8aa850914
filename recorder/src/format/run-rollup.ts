import { isErrorEvent } from "./error-events.js";
import type { RecordedEvent } from "./event.js";
import { LatencySketch } from "./latency-sketch.js";
import type { ModelRollup, RunRollup, ToolRollup } from "./rollup-types.js";

export type { ModelRollup, RunRollup, ToolRollup } from "./rollup-types.js";

/** The parts of an event a rollup reads; `attrs` may be omitted for kinds it does not read them of. */
export type RollupEvent = Pick<RecordedEvent, "kind"> & Partial<Pick<RecordedEvent, "attrs" | "payload" | "payloadRef" | "redacted">>;

/** Kinds whose attributes (or payload) a rollup reads; the others count by kind and bytes only. */
export const ROLLUP_DETAIL_KINDS: ReadonlySet<string> = new Set(["llm_response", "tool_call_end", "custom"]);

const nameOf = (value: unknown): string => (typeof value === "string" ? value : "unknown");
const numberOf = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Builds a `RunRollup` one event at a time (the one rule every writer of run.json uses). */
export class RollupTally {
  private readonly bytesByKind: Record<string, number> = {};
  private readonly models: Record<string, ModelRollup> = {};
  private readonly tools = new Map<string, { calls: number; errors: number; latency: LatencySketch }>();
  private readonly spills = { count: 0, bytes: 0 };
  private redactedValues = 0;

  /** Continues the rollup of a resumed run. */
  static from(rollup: RunRollup): RollupTally {
    const tally = new RollupTally();
    Object.assign(tally.bytesByKind, rollup.bytesByKind);
    for (const [model, m] of Object.entries(rollup.models)) tally.models[model] = { ...m };
    for (const [tool, t] of Object.entries(rollup.tools)) tally.tools.set(tool, { calls: t.calls, errors: t.errors, latency: LatencySketch.from(t.latency) });
    Object.assign(tally.spills, rollup.spills);
    tally.redactedValues = rollup.redactedValues;
    return tally;
  }

  /** Adds one event; `lineBytes`: its line's UTF-8 bytes with the newline. */
  add(event: RollupEvent, lineBytes: number): void {
    const kind = event.kind;
    this.bytesByKind[kind] = (this.bytesByKind[kind] ?? 0) + lineBytes + (event.payloadRef?.bytes ?? 0);
    if (event.redacted) this.redactedValues += event.redacted.length;
    const attrs = event.attrs ?? {};
    if (kind === "llm_response") {
      const model = nameOf(attrs.model);
      const m = (this.models[model] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
      m.calls++;
      m.inputTokens += numberOf(attrs.inputTokens);
      m.outputTokens += numberOf(attrs.outputTokens);
    } else if (kind === "tool_call_end") {
      const tool = nameOf(attrs.toolName);
      let t = this.tools.get(tool);
      if (!t) this.tools.set(tool, (t = { calls: 0, errors: 0, latency: new LatencySketch() }));
      t.calls++;
      if (isErrorEvent({ kind, attrs })) t.errors++;
      if (typeof attrs.durationMs === "number") t.latency.add(attrs.durationMs);
    } else if (kind === "custom" && attrs.name === "spill") {
      this.spills.count++;
      const data = (event.payload as { data?: { bytes?: unknown } } | undefined)?.data;
      this.spills.bytes += numberOf(data?.bytes);
    }
  }

  /** The rollup so far, as `run.json` holds it. */
  toJSON(): RunRollup {
    const tools: Record<string, ToolRollup> = {};
    for (const [tool, t] of this.tools) tools[tool] = { calls: t.calls, errors: t.errors, latency: t.latency.toJSON() };
    return { bytesByKind: { ...this.bytesByKind }, models: structuredClone(this.models), tools, spills: { ...this.spills }, redactedValues: this.redactedValues };
  }
}

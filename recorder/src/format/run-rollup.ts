import { cacheTokensOf } from "./cache-tokens.js";
import { isErrorEvent } from "./error-events.js";
import type { RecordedEvent } from "./event.js";
import { LatencySketch } from "./latency-sketch.js";
import type { ModelRollup, RunRollup, ToolRollup } from "./rollup-types.js";

export type { ModelRollup, RunRollup, ToolRollup } from "./rollup-types.js";

/** The parts of an event a rollup reads; `attrs` may be omitted for kinds it does not read them of. */
export type RollupEvent = Pick<RecordedEvent, "kind"> &
  Partial<Pick<RecordedEvent, "attrs" | "payload" | "payloadRef" | "redacted">>;

/** Kinds whose attributes (or payload) a rollup reads; the others count by kind and bytes only. */
export const ROLLUP_DETAIL_KINDS: ReadonlySet<string> = new Set(["llm_response", "tool_call_end", "custom"]);

const nameOf = (value: unknown): string => (typeof value === "string" ? value : "unknown");
const numberOf = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Builds a `RunRollup` one event at a time (every writer of run.json rolls up through it). */
export class RollupTally {
  private readonly bytesByKind: Record<string, number> = {};
  /** By the name a reply reported, which a provider's endpoint chooses: a Map, so no name (`__proto__`) reaches a prototype. */
  private readonly models = new Map<string, ModelRollup>();
  private readonly tools = new Map<
    string,
    { calls: number; errors: number; latency: LatencySketch; costUsd: number | null }
  >();
  private readonly spills = { count: 0, bytes: 0 };
  private redactedValues = 0;

  /** Continues the rollup of a resumed run. */
  static from(rollup: RunRollup): RollupTally {
    const tally = new RollupTally();
    Object.assign(tally.bytesByKind, rollup.bytesByKind);
    for (const [model, m] of Object.entries(rollup.models)) tally.models.set(model, { ...m });
    for (const [tool, t] of Object.entries(rollup.tools))
      tally.tools.set(tool, {
        calls: t.calls,
        errors: t.errors,
        latency: LatencySketch.from(t.latency),
        costUsd: t.costUsd ?? null,
      });
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
      let m = this.models.get(model);
      if (!m)
        this.models.set(model, (m = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null, unpricedCalls: 0 }));
      m.calls++;
      m.inputTokens += numberOf(attrs.inputTokens);
      m.outputTokens += numberOf(attrs.outputTokens);
      const cache = cacheTokensOf(attrs);
      if (cache.cacheReadTokens !== undefined) m.cacheReadTokens = (m.cacheReadTokens ?? 0) + cache.cacheReadTokens;
      if (cache.cacheWriteTokens !== undefined) m.cacheWriteTokens = (m.cacheWriteTokens ?? 0) + cache.cacheWriteTokens;
      const usd = recordedCostUsd(attrs);
      if (usd !== null) m.costUsd = (m.costUsd ?? 0) + usd;
      else m.unpricedCalls = (m.unpricedCalls ?? 0) + 1;
      for (const [tool, share] of toolCostShares(attrs)) {
        const t = this.tool(tool);
        if (share !== null) t.costUsd = (t.costUsd ?? 0) + share;
      }
    } else if (kind === "tool_call_end") {
      const t = this.tool(nameOf(attrs.toolName));
      t.calls++;
      if (isErrorEvent({ kind, attrs })) t.errors++;
      if (typeof attrs.durationMs === "number") t.latency.add(attrs.durationMs);
    } else if (kind === "custom" && attrs.name === "spill") {
      this.spills.count++;
      const data = (event.payload as { data?: { bytes?: unknown } } | undefined)?.data;
      this.spills.bytes += numberOf(data?.bytes);
    }
  }

  /** The figures of one tool, made on first sight. */
  private tool(name: string) {
    let t = this.tools.get(name);
    if (!t) this.tools.set(name, (t = { calls: 0, errors: 0, latency: new LatencySketch(), costUsd: null }));
    return t;
  }

  /** The rollup so far, as `run.json` holds it. */
  toJSON(): RunRollup {
    // fromEntries defines each member, where `record[name] =` would set a prototype for `__proto__`.
    const tools = Object.fromEntries(
      Array.from(this.tools, ([tool, t]): [string, ToolRollup] => [
        tool,
        { calls: t.calls, errors: t.errors, latency: t.latency.toJSON(), costUsd: t.costUsd },
      ]),
    );
    const models = Object.fromEntries(Array.from(this.models, ([model, m]) => [model, { ...m }]));
    return {
      bytesByKind: { ...this.bytesByKind },
      models,
      tools,
      spills: { ...this.spills },
      redactedValues: this.redactedValues,
    };
  }
}

/** A run's model calls together: the priced calls' cost (null when none was priced) and how many had no price. */
export interface ModelsCost {
  /** US dollars, to the nano-dollar (sums made in another order then agree to the digit). */
  usd: number | null;
  /** Calls without a price: the total is a lower bound when this is not 0. */
  unpricedCalls: number;
}

/**
 * The cost of a run's calls from its per-model figures (a rollup's, or a summary's). A model
 * rolled up before cost was recorded has no `costUsd`: its calls count as unpriced.
 */
export function costOfModels(models: Iterable<Pick<ModelRollup, "calls" | "costUsd" | "unpricedCalls">>): ModelsCost {
  let usd: number | null = null;
  let unpricedCalls = 0;
  for (const m of models) {
    if (typeof m.costUsd === "number") usd = (usd ?? 0) + m.costUsd;
    unpricedCalls += m.unpricedCalls ?? (m.costUsd === undefined ? m.calls : 0);
  }
  return { usd: nanoDollars(usd), unpricedCalls };
}

/** Dollars rounded to the nano-dollar. */
export function nanoDollars<T extends number | null>(usd: T): T {
  return (usd === null ? null : Math.round(usd * 1e9) / 1e9) as T;
}

/** The US dollars an `llm_response` line's attributes say its call cost; null without a price (or in recordings made before cost). */
export function recordedCostUsd(attrs: Readonly<Record<string, unknown>>): number | null {
  const usd = (attrs.cost as { usd?: unknown } | undefined)?.usd;
  return typeof usd === "number" ? usd : null;
}

/**
 * Each tool a reply asked for, with its share of the reply's cost (null when the call had no
 * price): the reply's cost split evenly among its tool calls: how every reader counts a tool's chain cost.
 */
export function toolCostShares(attrs: Readonly<Record<string, unknown>>): Array<[string, number | null]> {
  const names = Array.isArray(attrs.toolCalls) ? attrs.toolCalls.filter((n): n is string => typeof n === "string") : [];
  const usd = recordedCostUsd(attrs);
  return names.map((name) => [name, usd === null ? null : usd / names.length]);
}

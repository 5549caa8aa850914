import type { ToolCall } from "../types/content.js";

export interface RepetitionFound {
  period: number;
  laps: number;
  tool: string;
}

/**
 * Watches the sequence of tool calls (name and input) and reports when the
 * last `period` calls have repeated `threshold` times in a row.
 */
export class RepetitionGuard {
  private readonly signatures: string[] = [];
  private readonly names: string[] = [];

  constructor(
    private readonly threshold: number,
    private readonly maxPeriod = 4,
  ) {}

  /** Adds one turn's calls; returns the repetition when one is found. */
  observe(calls: readonly ToolCall[]): RepetitionFound | undefined {
    for (const call of calls) {
      this.signatures.push(`${call.name}\u0000${stableJson(call.input)}`);
      this.names.push(call.name);
    }
    const keep = this.maxPeriod * this.threshold;
    if (this.signatures.length > keep * 2) {
      this.signatures.splice(0, this.signatures.length - keep);
      this.names.splice(0, this.names.length - keep);
    }
    for (let period = 1; period <= this.maxPeriod; period++) {
      if (this.repeats(period)) {
        const first = this.names[this.names.length - calls.length] ?? this.names[this.names.length - period]!;
        return { period, laps: this.threshold, tool: first };
      }
    }
    return undefined;
  }

  reset(): void {
    this.signatures.length = 0;
    this.names.length = 0;
  }

  private repeats(period: number): boolean {
    const n = this.signatures.length;
    const span = period * this.threshold;
    if (n < span) return false;
    for (let i = n - span; i < n - period; i++) {
      if (this.signatures[i] !== this.signatures[i + period]) return false;
    }
    return true;
  }
}

function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const keys = Object.keys(value as object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

import { ConfigError } from "@harnessx/core";

/**
 * The `sample` option checked: a fraction from 0 to 1, else a `ConfigError` naming `owner`.
 * Undefined when not set: no head sampling at all (every run, whatever a parent context says).
 */
export function sampleRatio(value: unknown, owner: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1) return value;
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  throw new ConfigError(`${owner}: sample must be a number from 0 to 1 (the fraction of runs exported), got ${shown}`);
}

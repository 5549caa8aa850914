import { isTraceId } from "@harnessx/core/tracing";
import { usageError } from "./errors.js";

/**
 * A comma-separated option value (`--kind a,b`) as a set, each entry one of `allowed`: a typo
 * would otherwise filter everything out and exit 0 with nothing shown.
 */
export function choiceList(option: string, text: string, allowed: readonly string[]): Set<string> {
  const values = text
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = values.find((v) => !allowed.includes(v));
  if (unknown !== undefined || values.length === 0) {
    throw usageError(
      `${option}: ${unknown === undefined ? "no value given" : `unknown value "${unknown}"`}; valid values: ${allowed.join(", ")}`,
    );
  }
  return new Set(values);
}

/** A W3C trace id option value (`--trace-id`): 32 lowercase hex digits, not all zero, as backends show it. */
export function traceIdValue(option: string, text: string): string {
  const value = text.trim();
  if (!isTraceId(value)) {
    const hint = /^[0-9a-fA-F]{32}$/.test(value)
      ? /[A-F]/.test(value)
        ? " (use lowercase)"
        : " (all zeros is not a trace id)"
      : "";
    throw usageError(`${option} must be a trace id of 32 lowercase hex digits, got "${text}"${hint}`);
  }
  return value;
}

/** A whole-number option value (`--limit 50`, `--from 1200`) of at least `min`. */
export function wholeNumber(option: string, text: string, min: number): number {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isSafeInteger(value) || value < min)
    throw usageError(`${option} must be a whole number of at least ${min}, got "${text}"`);
  return value;
}

import { usageError } from "./errors.js";

/**
 * A comma-separated option value (`--kind a,b`) as a set, each entry one of `allowed`: a typo
 * would otherwise filter everything out and exit 0 with nothing shown.
 */
export function choiceList(option: string, text: string, allowed: readonly string[]): Set<string> {
  const values = text.split(",").map((v) => v.trim()).filter(Boolean);
  const unknown = values.find((v) => !allowed.includes(v));
  if (unknown !== undefined || values.length === 0) {
    throw usageError(`${option}: ${unknown === undefined ? "no value given" : `unknown value "${unknown}"`}; valid values: ${allowed.join(", ")}`);
  }
  return new Set(values);
}

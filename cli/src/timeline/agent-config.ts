import { terminalSafe } from "../output/terminal-safe.js";

/** Characters per printed line of settings before the next one starts. */
const LINE_CHARS = 96;

/**
 * The settings a run was recorded with (`run.json`'s `config`), as `key value` pairs wrapped into
 * lines: what replay rebuilds the agent from, and the first suspect when a run took another path.
 * The system prompt is shown by its size only (it is in every request). Empty when none was recorded.
 */
export function describeConfig(config: unknown): string[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return [];
  const pairs = Object.entries(config as Record<string, unknown>).map(([key, value]) =>
    key === "system" && typeof value === "string" ? `system (${value.length} chars)` : `${key} ${typeof value === "string" ? value : JSON.stringify(value) ?? "unset"}`,
  );
  const lines: string[] = [];
  for (const pair of pairs) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + pair.length + 2 <= LINE_CHARS) lines[last] += `  ${pair}`;
    else lines.push(pair);
  }
  return lines.map(terminalSafe);
}

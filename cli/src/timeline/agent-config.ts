import { terminalSafe } from "../output/terminal-safe.js";

/** Characters per printed line of settings before the next one starts. */
const LINE_CHARS = 96;

/**
 * The settings a run was recorded with (`run.json`'s `config`), as `key value` pairs wrapped into
 * lines: what replay rebuilds the agent from, and the first suspect when a run took another path.
 * The provider comes first when recorded; the system prompt is shown by its size only (it is in
 * every request). Empty when no configuration was recorded.
 */
export function describeConfig(config: unknown, provider?: string): string[] {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return [];
  const entries = [
    ...(provider ? [["provider", provider] as const] : []),
    ...Object.entries(config as Record<string, unknown>),
  ];
  const pairs = entries.map(([key, value]) =>
    key === "system" && typeof value === "string"
      ? `system (${value.length} chars)`
      : `${key} ${typeof value === "string" ? value : (JSON.stringify(value) ?? "unset")}`,
  );
  const lines: string[] = [];
  for (const pair of pairs) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + pair.length + 2 <= LINE_CHARS) lines[last] += `  ${pair}`;
    else lines.push(pair);
  }
  return lines.map(terminalSafe);
}

/** One line per tool the run was offered: its name, what is not the default about it, the start of its schema digest. */
export function describeTools(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools
    .filter(
      (t): t is Record<string, unknown> =>
        typeof t === "object" && t !== null && typeof (t as { name?: unknown }).name === "string",
    )
    .map((t) =>
      terminalSafe(
        [
          t.name,
          t.extension && `from ${t.extension}`,
          t.concurrent === true && "concurrent",
          t.permission && `permission ${t.permission}`,
          t.replayPolicy && `replay ${t.replayPolicy}`,
          typeof t.timeoutSeconds === "number" && `timeout ${t.timeoutSeconds}s`,
          typeof t.attempts === "number" && t.attempts > 1 && `${t.attempts} attempts`,
          typeof t.schemaSha256 === "string" && `schema ${t.schemaSha256.slice(0, 8)}`,
        ]
          .filter(Boolean)
          .join("  "),
      ),
    );
}

/** Human formatting of figures shared by tables, timelines and the report. */

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "-";
  if (ms === 0) return "0ms";
  if (ms < 1) return `${ms.toFixed(2)}ms`;
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return `${minutes}m${String(seconds).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "-";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** ISO time without milliseconds, in UTC: stable across machines. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "-";
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "-";
  return n.toLocaleString("en-US");
}

/** US dollars as people read them: cents above a dollar, four significant digits below; `unknown` without a price. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return "unknown";
  if (usd === 0) return "$0";
  if (usd < 1e-6) return "<$0.000001";
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${Number(usd.toPrecision(4))}`;
}

/** A run's cost: `-` before it ends, `unknown` when no call had a price, a `+` when some had none (the sum is a lower bound). */
export function formatRunCost(cost: { usd: number | null; unpricedCalls: number } | null): string {
  if (!cost) return "-";
  return cost.usd === null
    ? cost.unpricedCalls
      ? "unknown"
      : "$0"
    : `${formatCost(cost.usd)}${cost.unpricedCalls ? "+" : ""}`;
}

/** Cuts a string to `max` characters, marking the cut. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** The first few of a list of names from a recording, each cut short: a hostile file may list thousands, or one very long. */
export function fewNames(names: readonly string[], shown = 5): string {
  return (
    names
      .slice(0, shown)
      .map((name) => cut(name, 40))
      .join(", ") + (names.length > shown ? ` and ${names.length - shown} more` : "")
  );
}

/**
 * Parses `--since`: a duration back from now (`30m`, `2h`, `7d`, `45s`) or an ISO date/time.
 * Returns epoch milliseconds, or undefined when the text is neither.
 */
export function parseSince(text: string, now: number = Date.now()): number | undefined {
  const relative = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/i.exec(text.trim());
  if (relative) {
    const unitMs = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[
      relative[2]!.toLowerCase() as "s" | "m" | "h" | "d" | "w"
    ];
    return now - Number(relative[1]) * unitMs;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const absolute = Date.parse(text);
  return Number.isNaN(absolute) ? undefined : absolute;
}

/** The value at quantile `q` (0..1) of sorted numbers, nearest-rank. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? null;
}

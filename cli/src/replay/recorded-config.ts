import { modelPriceProblem, type AgentConfig, type ModelRetryOptions } from "@harnessx/core";

type ModelPrices = AgentConfig["prices"];

/** The settings a recorded run was made with that replay applies: every `AgentConfig` field but the ones the requests carry. */
export type ReplayedConfig = Partial<Omit<AgentConfig, "name" | "model" | "system">>;

const NUMBERS = [
  "maxIterations",
  "maxTokens",
  "maxReplyTokens",
  "maxResultChars",
  "contextBudgetTokens",
  "requestTimeoutMs",
  "maxPromptFragmentChars",
] as const;
const BOOLEANS = ["condense", "todos"] as const;
/** The fields `configDifferences` reports, in this order (`system` is compared as part of each request). */
const COMPARED_FIELDS = [
  "name",
  "model",
  ...NUMBERS,
  "temperature",
  ...BOOLEANS,
  "retry",
  "repetition",
  "prices",
] as const;

function positive(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/**
 * The configuration `run.json` holds (`config`, written when the run started) as replay applies
 * it: only the fields of the right type and range (a bundle may come from anyone; a recording
 * from an older recorder may have none, and then replay falls back to the defaults), and retries
 * that keep their count but not their waits (the recorded failures are replayed at once).
 */
export function replayConfig(config: unknown): ReplayedConfig | undefined {
  if (!isRecord(config)) return undefined;
  const source = config;
  const out: ReplayedConfig = {};
  for (const key of NUMBERS) if (positive(source[key])) out[key] = source[key];
  for (const key of BOOLEANS) if (typeof source[key] === "boolean") out[key] = source[key];
  if (typeof source.temperature === "number" && Number.isFinite(source.temperature))
    out.temperature = source.temperature;
  const retry = source.retry as Partial<Record<keyof ModelRetryOptions, unknown>> | undefined;
  if (retry && positive(retry.maxAttempts))
    out.retry = { maxAttempts: Math.min(retry.maxAttempts, 100), initialDelayMs: 0, maxDelayMs: 0 };
  const repetition = source.repetition as { threshold?: unknown } | false | undefined;
  if (repetition === false) out.repetition = false;
  else if (repetition && positive(repetition.threshold)) out.repetition = { threshold: repetition.threshold };
  // The run's own prices, so a replay costs what the run did (a price file is a path on another machine: not replayed).
  const prices = pricesOf(source.prices);
  if (prices) out.prices = prices;
  return out;
}

/**
 * Where one configuration differs from another (the recorded run's, and the agent under test's
 * or another run's), one line per field, e.g. `contextBudgetTokens 50000 -> 150000`: reported
 * apart from behaviour, since a changed setting explains a different path without any code having
 * changed. Retry waits are not compared (replay does not wait). Nothing when `before` holds no
 * configuration (a recording from an older recorder).
 */
export function configDifferences(before: unknown, after: unknown): string[] {
  if (!isRecord(before)) return [];
  const now = isRecord(after) ? after : {};
  const differences: string[] = [];
  for (const key of COMPARED_FIELDS) {
    const was = key === "retry" ? retryCount(before.retry) : before[key];
    const is = key === "retry" ? retryCount(now.retry) : now[key];
    if (was === undefined && key !== "temperature") continue;
    const [a, b] = [JSON.stringify(was ?? null), JSON.stringify(is ?? null)];
    if (a !== b) differences.push(`${key === "retry" ? "retry.maxAttempts" : key} ${a} -> ${b}`);
  }
  return differences;
}

/** The recorded `prices` whose every figure is a price (a number of dollars, 0 or more); undefined otherwise. */
function pricesOf(value: unknown): ModelPrices | undefined {
  if (!isRecord(value) || Object.keys(value).length === 0) return undefined;
  return Object.values(value).every((price) => modelPriceProblem(price) === undefined)
    ? (value as ModelPrices)
    : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function retryCount(retry: unknown): unknown {
  return (retry as { maxAttempts?: unknown } | undefined)?.maxAttempts;
}

/** Tool settings compared besides the schema digest, in this order. */
const TOOL_FIELDS = ["description", "permission", "concurrent", "replayPolicy", "timeoutSeconds", "attempts"] as const;

/**
 * How the tools offered differ (the recorded run's, and the agent under test's or another run's):
 * tools added or removed, a changed input schema (by digest) and changed settings, one line each,
 * e.g. `tool search: schema 1f3a9c2e -> 77b0d415`. Nothing when `before` holds no tools (a
 * recording from an older recorder).
 */
export function toolDifferences(before: unknown, after: unknown): string[] {
  if (!Array.isArray(before)) return [];
  const byName = (list: unknown): Map<string, Record<string, unknown>> =>
    new Map(
      (Array.isArray(list) ? list : [])
        .filter(isRecord)
        .filter((t) => typeof t.name === "string")
        .map((t) => [t.name as string, t]),
    );
  const [was, now] = [byName(before), byName(after)];
  const differences: string[] = [];
  for (const [name, tool] of was) {
    const next = now.get(name);
    if (!next) {
      differences.push(`tool ${name}: removed`);
      continue;
    }
    if (tool.schemaSha256 !== next.schemaSha256)
      differences.push(
        `tool ${name}: schema ${String(tool.schemaSha256).slice(0, 8)} -> ${String(next.schemaSha256).slice(0, 8)}`,
      );
    for (const key of TOOL_FIELDS) {
      const [a, b] = [JSON.stringify(tool[key] ?? null), JSON.stringify(next[key] ?? null)];
      if (a !== b) differences.push(`tool ${name}: ${key} ${a} -> ${b}`);
    }
  }
  for (const name of now.keys()) if (!was.has(name)) differences.push(`tool ${name}: added`);
  return differences;
}

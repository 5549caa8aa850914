import type { CacheBreakpoint } from "../types/provider.js";

/**
 * What is wrong with a middleware's cache breakpoints for a request of `messageCount` messages,
 * as a sentence; undefined when every entry is a breakpoint the request can carry.
 */
export function cacheBreakpointsProblem(breakpoints: unknown, messageCount: number): string | undefined {
  if (!Array.isArray(breakpoints)) return `must return an array of cache breakpoints; got ${describe(breakpoints)}`;
  for (const bp of breakpoints as unknown[]) {
    const after = (bp as { after?: unknown } | null)?.after;
    if (after === "tools" || after === "system") continue;
    if (after !== "message")
      return `returned ${describe(bp)}: a cache breakpoint is { after: "tools" }, { after: "system" } or { after: "message", index }`;
    const index = (bp as { index?: unknown }).index;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= messageCount) {
      return `returned a message breakpoint at index ${describe(index)}; the request has ${messageCount} message(s)`;
    }
  }
  return undefined;
}

/** Only the breakpoint's own fields: a middleware's object may carry others. */
export function plainBreakpoint(bp: CacheBreakpoint): CacheBreakpoint {
  return bp.after === "message" ? { after: "message", index: bp.index } : { after: bp.after };
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

import type { Message, ToolDefinition } from "@harnessx/core";
import type { HistoryRewriteCause, PrefixPart, PromptCacheBreak, ToolListChange } from "@harnessx/core/extension";

/** What one call sent, as far as caching goes. */
export interface SentPrefix {
  /** The call's `prefixKey` (system prompt and tools). */
  prefixKey: string;
  /** The composed system prompt sent. */
  system: string;
  /** The tools offered. */
  tools: readonly ToolDefinition[];
  /** The history sent (a copy of the list: the live history grows after the call). */
  messages: readonly Message[];
}

/** How the history may have been rewritten between two calls. */
export interface RewriteClues {
  /** A compaction happened since the previous call. */
  compacted: boolean;
  /** The middleware that returned another history for this call. */
  rewrittenBy?: readonly string[];
}

const EXCERPT_CHARS = 80;

/**
 * The cache break between two consecutive calls, or undefined when this call sends the previous
 * call's prefix unchanged (its tools, system prompt and whole history, extended at the end).
 */
export function cacheBreakBetween(
  previous: SentPrefix,
  current: SentPrefix,
  clues: RewriteClues,
): PromptCacheBreak | undefined {
  const changed: PrefixPart[] = [];
  const found: Pick<PromptCacheBreak, "tools" | "system" | "history"> = {};
  if (previous.prefixKey !== current.prefixKey) {
    const tools = toolChanges(previous.tools, current.tools);
    if (tools) {
      changed.push("tools");
      found.tools = tools;
    }
    if (previous.system !== current.system) {
      changed.push("system");
      const at = firstDifference(previous.system, current.system);
      found.system = { firstDifference: at, now: current.system.slice(at, at + EXCERPT_CHARS) };
    }
  }
  const at = firstChangedMessage(previous.messages, current.messages);
  if (at !== undefined) {
    changed.push("history");
    const cause: HistoryRewriteCause = clues.compacted
      ? "compaction"
      : clues.rewrittenBy?.length
        ? "middleware"
        : "unknown";
    found.history = {
      firstChangedMessage: at,
      cause,
      ...(clues.rewrittenBy?.length ? { rewrittenBy: [...clues.rewrittenBy] } : {}),
    };
  }
  if (changed.length === 0) return undefined;
  return { changed, previousPrefixKey: previous.prefixKey, prefixKey: current.prefixKey, ...found };
}

function toolChanges(before: readonly ToolDefinition[], after: readonly ToolDefinition[]): ToolListChange | undefined {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const added = after.filter((t) => !old.has(t.name)).map((t) => t.name);
  const removed = before.filter((t) => !now.has(t.name)).map((t) => t.name);
  const changed = after.filter((t) => old.has(t.name) && !sameTool(old.get(t.name)!, t)).map((t) => t.name);
  const reordered = added.length === 0 && removed.length === 0 && before.some((t, i) => after[i]?.name !== t.name);
  if (added.length === 0 && removed.length === 0 && changed.length === 0 && !reordered) return undefined;
  return { added, removed, changed };
}

function sameTool(a: ToolDefinition, b: ToolDefinition): boolean {
  return (
    a === b || (a.description === b.description && JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema))
  );
}

/** Index of the first message of `before` that `after` does not send the same; undefined when `after` starts with all of `before`. */
function firstChangedMessage(before: readonly Message[], after: readonly Message[]): number | undefined {
  for (let i = 0; i < before.length; i++) {
    if (i >= after.length) return i;
    // The same object is the same message; a middleware's copy counts as changed only when its content differs.
    if (before[i] !== after[i] && JSON.stringify(before[i]) !== JSON.stringify(after[i])) return i;
  }
  return undefined;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

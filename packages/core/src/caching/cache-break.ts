import type { Message } from "../types/content.js";
import type { ToolDefinition } from "../types/provider.js";

/** The name of the `CUSTOM` event `promptCacheExtension` emits for a {@link PromptCacheBreak}. */
export const PROMPT_CACHE_BREAK = "prompt_cache_break";

/** A part of the request's prefix, in the order providers cache it. */
export type PrefixPart = "tools" | "system" | "history";

/** Why the history a call sends is not the one the previous call sent, extended. */
export type HistoryRewriteCause =
  /** The history was compacted (`CONTEXT_CONDENSED`) since the previous call. */
  | "compaction"
  /** A `beforeLlmCall` middleware returned another history (`rewrittenBy` names it). */
  | "middleware"
  /** Neither: something else changed the conversation (e.g. a session loaded in between). */
  | "unknown";

/**
 * The `prompt_cache_break` event: a model call whose prompt prefix differs from the previous call
 * of the same run, so the provider's cache of that prefix cannot be read from the first changed part on.
 */
export interface PromptCacheBreak {
  /** What changed, in prefix order (the system prompt lists the tools, so a tool change changes it too). */
  changed: PrefixPart[];
  /** `prefixKey` of the previous call (system prompt and tools). */
  previousPrefixKey: string;
  /** `prefixKey` of this call. */
  prefixKey: string;
  /** Set when `tools` changed (added, removed, changed, or only reordered). */
  tools?: ToolListChange;
  /** Set when `system` changed. */
  system?: SystemPromptChange;
  /** Set when `history` changed. */
  history?: HistoryChange;
}

/** How the tool list of a call differs from the previous call's (`PromptCacheBreak.tools`). */
export interface ToolListChange {
  /** Tools offered now and not before. */
  added: string[];
  /** Tools offered before and not now. */
  removed: string[];
  /** Tools offered both times whose description or input schema differs. */
  changed: string[];
}

/** Where the system prompt of a call first differs from the previous call's (`PromptCacheBreak.system`). */
export interface SystemPromptChange {
  /** Index of the first character that differs. */
  firstDifference: number;
  /** Up to 80 characters of the new system prompt from there. */
  now: string;
}

/** How the history a call sends differs from the previous call's (`PromptCacheBreak.history`). */
export interface HistoryChange {
  /** Index of the first message of the previous call's history that this call sends differently (or not at all). */
  firstChangedMessage: number;
  /** Why the history changed. */
  cause: HistoryRewriteCause;
  /** The middleware (or their extensions) whose `beforeLlmCall` returned another history for this call. */
  rewrittenBy?: readonly string[];
}

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

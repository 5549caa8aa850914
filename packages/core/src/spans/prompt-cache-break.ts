// The `prompt_cache_break` event's vocabulary lives in core, beside the span mapping that turns
// it into a `harnessx.prompt_cache_break` span event; `@harnessx/prompt-cache` emits it.
import type { Attributes } from "./span-model.js";

declare module "../hooks/custom-events.js" {
  interface CustomEvents {
    /** Emitted by `promptCacheExtension` when a model call's prompt prefix differs from the previous call's in the same run. */
    prompt_cache_break: PromptCacheBreak;
  }
}

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

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/**
 * The attributes of a `harnessx.prompt_cache_break` span event: what changed, the tools added,
 * removed and changed, and for the history the first changed message, the cause and who rewrote
 * it. Never the system prompt's text. Read defensively: a recorded break is JSON from a file.
 */
export function cacheBreakAttributes(data: Partial<PromptCacheBreak> | undefined): Attributes {
  const out: Attributes = { "harnessx.prompt_cache.changed": names(data?.changed) };
  const tools = data?.tools;
  if (tools) {
    for (const part of ["added", "removed", "changed"] as const) {
      const list = names(tools[part]);
      if (list.length) out[`harnessx.prompt_cache.tools_${part}`] = list;
    }
  }
  if (typeof data?.system?.firstDifference === "number")
    out["harnessx.prompt_cache.system_first_difference"] = data.system.firstDifference;
  const history = data?.history;
  if (history) {
    if (typeof history.firstChangedMessage === "number")
      out["harnessx.prompt_cache.history_first_changed_message"] = history.firstChangedMessage;
    if (typeof history.cause === "string") out["harnessx.prompt_cache.history_cause"] = history.cause;
    const by = names(history.rewrittenBy);
    if (by.length) out["harnessx.prompt_cache.history_rewritten_by"] = by;
  }
  return out;
}

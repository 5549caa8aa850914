import type { PromptCacheBreak } from "../caching/cache-break.js";
import type { Attributes } from "./span-model.js";

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

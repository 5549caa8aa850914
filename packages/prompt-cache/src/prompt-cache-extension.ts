import { ConfigError, type CacheBreakpoint, type ModelRequest } from "@harnessx/core";
import { defineExtension, HookEvent, PROMPT_CACHE_BREAK, type Extension } from "@harnessx/core/extension";
import { cacheBreakBetween, type SentPrefix } from "./cache-break.js";

/** Options of `promptCacheExtension`; every field is optional. */
export interface PromptCacheOptions {
  /**
   * Breakpoints on the conversation: 2 (default) marks the newest message (so the next call reads
   * the whole conversation from the cache) and the one before it (a fallback when the newest was
   * not cached); 1 only the newest; 0 none. Tools and system prompt are always marked.
   */
  historyBreakpoints?: 0 | 1 | 2;
}

/** What a run's previous call sent, and whether the history was compacted since. */
interface RunState {
  sent: SentPrefix;
  compacted: boolean;
}

/**
 * Prompt caching: marks the stable prefix of every model request as cacheable
 * (`ModelRequest.cacheBreakpoints`: after the tools, after the system prompt, after the newest
 * messages; at most Anthropic's 4) and reports each call whose prefix differs from the previous
 * call of its run as a `prompt_cache_break` event saying what changed: the tools, the system
 * prompt, or the history (rewritten by a middleware it names, by compaction, or by something else).
 */
export function promptCacheExtension(options: PromptCacheOptions = {}): Extension {
  const historyBreakpoints = options.historyBreakpoints ?? 2;
  if (![0, 1, 2].includes(historyBreakpoints))
    throw new ConfigError(
      `promptCacheExtension: historyBreakpoints must be 0, 1 or 2; got ${JSON.stringify(options.historyBreakpoints)}`,
    );
  return defineExtension("prompt-cache", (hx) => {
    const runs = new Map<string, RunState>();
    hx.addMiddleware({
      name: "prompt-cache",
      placeCacheBreakpoints: async (request) => [
        ...(request.cacheBreakpoints ?? []),
        ...breakpointsFor(request, historyBreakpoints),
      ],
    });
    hx.onHook(HookEvent.CONTEXT_CONDENSED, (ctx) => {
      const run = ctx.runId === undefined ? undefined : runs.get(ctx.runId);
      if (run) run.compacted = true;
    });
    hx.onHook(HookEvent.LLM_REQUEST, async (ctx) => {
      const { runId } = ctx;
      if (runId === undefined) return;
      const { system, prefixKey, request, historyRewrittenBy } = ctx.data;
      // A copy of the list: the engine may hand the live history, which grows after the call.
      const sent: SentPrefix = { prefixKey, system, tools: request.tools, messages: request.messages.slice() };
      const previous = runs.get(runId);
      runs.set(runId, { sent, compacted: false });
      if (!previous) return;
      const broken = cacheBreakBetween(previous.sent, sent, {
        compacted: previous.compacted,
        ...(historyRewrittenBy ? { rewrittenBy: historyRewrittenBy } : {}),
      });
      if (broken) await hx.emit(PROMPT_CACHE_BREAK, broken);
    });
    hx.onHook(HookEvent.AGENT_END, (ctx) => void (ctx.runId !== undefined && runs.delete(ctx.runId)));
  });
}

/** The tools, the system prompt, then the newest `history` messages, skipping what the request lacks. */
function breakpointsFor(request: Readonly<ModelRequest>, history: number): CacheBreakpoint[] {
  const placed: CacheBreakpoint[] = [];
  if (request.tools.length > 0) placed.push({ after: "tools" });
  if (request.system !== "") placed.push({ after: "system" });
  const last = request.messages.length - 1;
  for (let index = Math.max(0, last - history + 1); index <= last; index++) placed.push({ after: "message", index });
  return placed;
}

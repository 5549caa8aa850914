/** The prompt-cache figures of a model call, as usage and `llm_response` attributes both name them. */
export interface CacheTokens {
  /** Input tokens read from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens?: number;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * The cache figures a usage (or the attributes of an `llm_response` line) reports, each only
 * when reported: a call that says nothing of its cache is not a call that read nothing from it.
 */
export function cacheTokensOf(source: Readonly<Record<string, unknown>>): CacheTokens {
  return {
    ...(isCount(source.cacheReadTokens) ? { cacheReadTokens: source.cacheReadTokens } : {}),
    ...(isCount(source.cacheWriteTokens) ? { cacheWriteTokens: source.cacheWriteTokens } : {}),
  };
}

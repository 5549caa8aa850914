import type { ContentBlock, Usage } from "../types/content.js";

/** The text blocks of a reply, joined. */
export function textOf(content: readonly ContentBlock[]): string {
  let text = "";
  for (const b of content) if (b.type === "text") text += b.text;
  return text;
}

/** Adds one call's usage to a run total; cache counts appear once any call reports them. */
export function addUsage(total: Usage, u: Usage): void {
  total.inputTokens += u.inputTokens;
  total.outputTokens += u.outputTokens;
  if (u.cacheReadTokens !== undefined) total.cacheReadTokens = (total.cacheReadTokens ?? 0) + u.cacheReadTokens;
  if (u.cacheWriteTokens !== undefined) total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + u.cacheWriteTokens;
}

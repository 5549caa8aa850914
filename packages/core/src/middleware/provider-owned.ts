import type { ContentBlock, Message } from "../types/content.js";
import type { ProviderResponse } from "../types/provider.js";

/** Blocks that belong to the provider: signed reasoning and opaque provider blocks. */
function isProviderOwned(block: ContentBlock): boolean {
  return block.type === "provider" || (block.type === "reasoning" && block.signature !== undefined);
}

/** A fingerprint of every provider-owned block, in order; equal fingerprints mean untouched. */
export function providerOwnedFingerprint(blocks: readonly ContentBlock[]): string | undefined {
  let parts: string[] | undefined;
  for (const block of blocks) {
    if (!isProviderOwned(block)) continue;
    (parts ??= []).push(JSON.stringify(block));
  }
  return parts?.join("\n");
}

/** Says what a middleware changed of a response's provider-owned content, or undefined. */
export function providerOwnedChange(before: ProviderResponse, after: ProviderResponse): string | undefined {
  if (before.stopReason === "pause_turn" && after.stopReason !== "pause_turn") {
    return "it changed the stop reason of a pending provider continuation (pause_turn)";
  }
  if (providerOwnedFingerprint(before.content) !== providerOwnedFingerprint(after.content)) {
    return "it altered provider-owned content (signed reasoning or an opaque provider block)";
  }
  return undefined;
}

/**
 * The same check over a history passed through `beforeLlmCall`. Dropping whole
 * messages is allowed (trimming context); changing or inventing provider-owned
 * blocks is not: what remains must be an in-order subsequence of the original.
 */
export function historyProviderOwnedChange(before: readonly Message[], after: readonly Message[]): string | undefined {
  const owned = (messages: readonly Message[]) => {
    const prints: string[] = [];
    for (const m of messages) {
      if (m.role !== "assistant") continue;
      for (const block of m.content) if (isProviderOwned(block)) prints.push(JSON.stringify(block));
    }
    return prints;
  };
  const original = owned(before);
  let i = 0;
  for (const print of owned(after)) {
    while (i < original.length && original[i] !== print) i++;
    if (i === original.length) return "it altered provider-owned content in the conversation history";
    i++;
  }
  return undefined;
}

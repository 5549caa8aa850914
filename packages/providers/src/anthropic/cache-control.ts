import type { CacheBreakpoint } from "@harnessx/core";
import type { ContentBlockParam, MessageParam, TextBlockParam, Tool } from "@anthropic-ai/sdk/resources/messages";

/** Breakpoints the Messages API takes in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: "ephemeral" } as const;

/** Blocks the API refuses a `cache_control` on. */
const UNCACHEABLE = new Set(["thinking", "redacted_thinking"]);

/** The parts of a Messages API body that carry breakpoints. */
export interface CacheableParts {
  system: string | TextBlockParam[] | undefined;
  tools: Tool[] | undefined;
  messages: MessageParam[];
}

/**
 * Puts `cache_control: { type: "ephemeral" }` where the canonical breakpoints say: on the last
 * tool, on the system prompt (sent as one text block), and on the last cacheable block of the
 * turn each message went into (`turnOf`: a message's turn, consecutive same-role messages being
 * merged). One marker per place, at most four: tools and system first, then the newest turns.
 * Marked blocks and tools are copies; the history's own objects are never changed.
 */
export function placeCacheControl(
  parts: CacheableParts,
  breakpoints: readonly CacheBreakpoint[] | undefined,
  turnOf: readonly number[],
): CacheableParts {
  if (!breakpoints?.length) return parts;
  let room = MAX_CACHE_BREAKPOINTS;
  let { system, tools } = parts;
  if (tools?.length && breakpoints.some((b) => b.after === "tools")) {
    tools = [...tools.slice(0, -1), { ...tools[tools.length - 1], cache_control: EPHEMERAL }];
    room--;
  }
  if (typeof system === "string" && system !== "" && breakpoints.some((b) => b.after === "system")) {
    system = [{ type: "text", text: system, cache_control: EPHEMERAL }];
    room--;
  }
  const turns = new Set<number>();
  for (const b of breakpoints) if (b.after === "message" && (turnOf[b.index] ?? -1) >= 0) turns.add(turnOf[b.index]);
  const newest = [...turns].sort((a, b) => b - a);
  const messages = parts.messages.slice();
  for (const turn of newest) {
    if (room === 0) break;
    const marked = markLastCacheable(messages[turn]);
    if (marked) {
      messages[turn] = marked;
      room--;
    }
  }
  return { system, tools, messages };
}

/** The turn with a marker on its last block that may carry one; undefined when none may. */
function markLastCacheable(turn: MessageParam): MessageParam | undefined {
  const blocks = turn.content as ContentBlockParam[];
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (UNCACHEABLE.has(blocks[i].type)) continue;
    const content = blocks.slice();
    content[i] = { ...blocks[i], cache_control: EPHEMERAL } as ContentBlockParam;
    // Same role and block kinds as the turn: only one block gained its marker.
    return { ...turn, content } as MessageParam;
  }
  return undefined;
}

import type { Agent } from "@harnessx/core";
import { ALL_HOOK_EVENTS, type HookEvent, type HookPayloads } from "@harnessx/core/extension";

export interface Seen {
  event: HookEvent;
  data: unknown;
}

/** Records every hook event an agent emits, in order (core's own kit works on its sources, this on its entries). */
export function recordEvents(agent: Agent): Seen[] {
  const seen: Seen[] = [];
  for (const event of ALL_HOOK_EVENTS) agent.hooks.on(event, (ctx) => void seen.push({ event, data: ctx.data }));
  return seen;
}

export function ofKind<E extends HookEvent>(seen: Seen[], event: E): HookPayloads[E][] {
  return seen.filter((s) => s.event === event).map((s) => s.data as HookPayloads[E]);
}

import { ALL_HOOK_EVENTS, type HookEvent } from "../hooks/events.js";
import type { HookPayloads } from "../hooks/payloads.js";

export interface Seen {
  event: HookEvent;
  data: unknown;
}

/**
 * What `recordEvents` needs of an agent, written out so that other packages' tests can pass their
 * `Agent` (core's build) where core's own tests pass core's source.
 */
export interface HookSource {
  readonly hooks: { on(event: HookEvent, handler: (ctx: { data: unknown }) => void): unknown };
}

/** Records every hook event an agent emits, in order. */
export function recordEvents(agent: HookSource): Seen[] {
  const seen: Seen[] = [];
  for (const event of ALL_HOOK_EVENTS) agent.hooks.on(event, (ctx) => void seen.push({ event, data: ctx.data }));
  return seen;
}

export function ofKind<E extends HookEvent>(seen: Seen[], event: E): HookPayloads[E][] {
  return seen.filter((s) => s.event === event).map((s) => s.data as HookPayloads[E]);
}

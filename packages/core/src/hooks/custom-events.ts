import type { ArtifactRef } from "../types/content.js";

/**
 * Custom events by name, with their payloads. Extensions declare theirs by declaration merging,
 * which types `ctx.emit(name, data)` and `CUSTOM` observers:
 *
 * ```ts
 * declare module "@harnessx/core" {
 *   interface CustomEvents { "cache.hit": { key: string; ageMs: number } }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface CustomEvents {}

export type CustomEventName = keyof CustomEvents & string;

/** One custom event as observers receive it. */
export interface CustomEvent<K extends CustomEventName> {
  extension: string;
  name: K;
  data: CustomEvents[K];
  /** Artifacts the event refers to (the recorder pins them and bundles them). */
  artifacts?: readonly ArtifactRef[];
}

/** The `CUSTOM` payload: one of the declared events (an undeclared shape while none is declared). */
export type CustomData = [CustomEventName] extends [never]
  ? { extension: string; name: string; data: unknown; artifacts?: readonly ArtifactRef[] }
  : { [K in CustomEventName]: CustomEvent<K> }[CustomEventName];

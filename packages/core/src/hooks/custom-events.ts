import type { ArtifactRef } from "../types/content.js";

/**
 * Custom events by name, with their payloads. Extensions declare theirs by declaration merging,
 * which types `ctx.emit(name, data)` and `CUSTOM` observers:
 *
 * ```ts
 * declare module "@harnessx/core/extension" {
 *   interface CustomEvents { "cache.hit": { key: string; ageMs: number } }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, extensions fill it by declaration merging (a type alias cannot merge)
export interface CustomEvents {}

/** The name of a declared custom event (a key of {@link CustomEvents}). */
export type CustomEventName = keyof CustomEvents & string;

/** One custom event as observers receive it. */
export interface CustomEvent<K extends CustomEventName> {
  /** Name of the extension that emitted it. */
  extension: string;
  /** The event's name, as declared in `CustomEvents`. */
  name: K;
  /** The payload, of the type its declaration gives. */
  data: CustomEvents[K];
  /** Artifacts the event refers to (the recorder pins them and bundles them). */
  artifacts?: readonly ArtifactRef[];
}

/** The `CUSTOM` payload: one of the declared events (an undeclared shape while none is declared). */
export type CustomData = [CustomEventName] extends [never]
  ? {
      /** Name of the extension that emitted it. */
      extension: string;
      /** The event's name, as the extension chose it. */
      name: string;
      /** The payload, as the extension gave it. */
      data: unknown;
      /** Artifacts the event refers to (the recorder pins them and bundles them). */
      artifacts?: readonly ArtifactRef[];
    }
  : { [K in CustomEventName]: CustomEvent<K> }[CustomEventName];

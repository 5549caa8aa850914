import type { SpillReference } from "./span-model.js";

/**
 * A spilled result: the spill extension replaced the tool's output with a
 * JSON envelope naming `resultId` and `bytes`. Anything else is not a spill.
 */
export function spillFromEnvelope(content: string): SpillReference | undefined {
  if (content.length === 0 || content.charCodeAt(0) !== 123 /* { */ || !content.includes("resultId")) return undefined;
  try {
    return spillFromData(JSON.parse(content));
  } catch {
    return undefined;
  }
}

/** Reads `{ resultId, bytes }` from an envelope or a CUSTOM `spill` event's data. */
export function spillFromData(data: unknown): SpillReference | undefined {
  if (!data || typeof data !== "object") return undefined;
  const d = data as { resultId?: unknown; bytes?: unknown };
  if (typeof d.resultId !== "string" || typeof d.bytes !== "number") return undefined;
  return { resultId: d.resultId, bytes: d.bytes };
}

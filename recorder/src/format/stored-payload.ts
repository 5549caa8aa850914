import { checkParseCost, checkReadMemory } from "./read-memory.js";

/**
 * A payload stored aside (`payloadRef`), parsed: the one reading every reader uses, so a run, a
 * bundle and the store answer alike. Text that is not JSON stays text (a hand-made or damaged
 * artifact is shown, not thrown on).
 */
export function parseStoredPayload(bytes: Buffer): unknown {
  // A payload stored aside may be up to 256 MiB of dense JSON: what decoding it would take is checked first.
  checkParseCost(bytes);
  const text = bytes.toString("utf8");
  let payload: unknown;
  try {
    payload = JSON.parse(text) as unknown;
  } catch {
    return text;
  }
  checkReadMemory();
  return payload;
}

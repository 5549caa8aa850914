import type { RecordedEvent } from "../format/event.js";
import { isArtifactId } from "../artifacts/artifact-store.js";

/** Artifacts the events reference: payloads stored aside, and CUSTOM events carrying a `sha256` (spills). */
export function referencedArtifacts(events: Iterable<RecordedEvent>): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.payloadRef && isArtifactId(event.payloadRef.sha256)) ids.add(event.payloadRef.sha256);
    const sha256 = event.kind === "custom" ? event.attrs?.sha256 : undefined;
    if (isArtifactId(sha256)) ids.add(sha256);
  }
  return [...ids];
}

import type { ArtifactRef } from "@harnessx/core";
import type { RecordedEvent } from "../format/event.js";
import { isArtifactId } from "@harnessx/artifacts";

/**
 * The artifacts an event's attributes name as stored by another extension (a spilled result):
 * `attrs.artifacts` (typed references, on tool results and CUSTOM events), or a CUSTOM event's
 * `attrs.sha256` in recordings made before typed references.
 */
export function artifactRefsOf(attrs: Record<string, unknown> | undefined): ArtifactRef[] {
  if (!attrs) return [];
  const refs = Array.isArray(attrs.artifacts) ? (attrs.artifacts as unknown[]).filter(isArtifactRef) : [];
  if (isArtifactId(attrs.sha256) && !refs.some((r) => r.sha256 === attrs.sha256))
    refs.push({ sha256: attrs.sha256, bytes: -1, mediaType: "application/octet-stream" });
  return refs;
}

/** The ids (sha256) of the artifacts `artifactRefsOf` finds in an event's attributes. */
export function artifactsOf(attrs: Record<string, unknown> | undefined): string[] {
  return artifactRefsOf(attrs).map((r) => r.sha256);
}

function isArtifactRef(value: unknown): value is ArtifactRef {
  const ref = value as Partial<ArtifactRef> | null;
  return (
    typeof ref === "object" &&
    ref !== null &&
    isArtifactId(ref.sha256) &&
    typeof ref.bytes === "number" &&
    typeof ref.mediaType === "string"
  );
}

/** Artifacts other extensions stored that the events reference (spilled results). */
export function extensionArtifacts(events: Iterable<RecordedEvent>): Set<string> {
  const ids = new Set<string>();
  for (const event of events) for (const id of artifactsOf(event.attrs)) ids.add(id);
  return ids;
}

/** Every artifact the events reference: payloads stored aside, and what other extensions stored. */
export function referencedArtifacts(events: Iterable<RecordedEvent>): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.payloadRef && isArtifactId(event.payloadRef.sha256)) ids.add(event.payloadRef.sha256);
    for (const id of artifactsOf(event.attrs)) ids.add(id);
  }
  return [...ids];
}

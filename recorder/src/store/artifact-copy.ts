import { createHash } from "node:crypto";
import type { Redactor } from "@harnessx/core/extension";
import { zstdCompress, type ArtifactStore } from "@harnessx/artifacts";

/** An artifact as a copy made to leave the store holds it (a bundle member, a dataset object). */
export interface ArtifactCopy {
  /** Its id: the store's, or the redacted copy's own sha256 when redaction changed it. */
  id: string;
  /** One zstd frame of its bytes. */
  frame: Buffer;
  /** Its uncompressed size. */
  bytes: number;
}

/** A spilled result's redacted copy, content-addressed under its own id (the same id when nothing changed). */
async function redactedCopy(store: ArtifactStore, id: string, redactor: Redactor): Promise<ArtifactCopy | undefined> {
  const raw = await store.get(id).catch(() => undefined);
  if (!raw) return undefined;
  const text = raw.toString("utf8");
  const clean = redactor.redactText(text);
  if (clean === text && Buffer.from(text).equals(raw)) {
    const frame = await store.getCompressed(id).catch(() => undefined);
    return frame && { id, frame, bytes: raw.byteLength };
  }
  const bytes = Buffer.from(clean);
  return {
    id: createHash("sha256").update(bytes).digest("hex"),
    frame: await zstdCompress(bytes),
    bytes: bytes.byteLength,
  };
}

/**
 * An artifact as it leaves the store: a spilled result (raw tool output, which the recorder never
 * redacted) redacted again when `redactor` is given (see `redactedCopy`), else the store's frame
 * as is, read whole and verified against its id first to declare its size. Undefined when it is
 * missing or corrupt.
 */
export async function artifactCopy(
  store: ArtifactStore,
  id: string,
  redactor: Redactor | undefined,
): Promise<ArtifactCopy | undefined> {
  if (redactor) return redactedCopy(store, id, redactor);
  const content = await store.get(id).catch(() => undefined);
  const frame = content && (await store.getCompressed(id).catch(() => undefined));
  return content && frame ? { id, frame, bytes: content.byteLength } : undefined;
}

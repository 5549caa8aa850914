import { HarnessError } from "@harnessx/core";

/** No artifact with this id exists in the store, or the id is not a sha256 hex digest. */
export class ArtifactNotFoundError extends HarnessError {
  /** The id that was looked up, as given (may not be a valid id). */
  readonly sha256: string;
  constructor(sha256: string, reason: "unknown" | "invalid_id") {
    super(
      "artifact_not_found",
      reason === "invalid_id"
        ? `invalid artifact id ${JSON.stringify(sha256.slice(0, 80))}: expected 64 lowercase hex characters (a sha256)`
        : `artifact ${sha256} is not in the store (never stored, or deleted once unpinned)`,
    );
    this.sha256 = sha256;
  }
}

/** An artifact's stored bytes no longer hash to its id: the file was damaged or edited. */
export class ArtifactCorruptError extends HarnessError {
  /** The id of the damaged artifact. */
  readonly sha256: string;
  constructor(sha256: string, detail: string, options?: { cause?: unknown }) {
    super("artifact_corrupt", `artifact ${sha256} is corrupt: ${detail}`, options);
    this.sha256 = sha256;
  }
}

import type { RunManifest, RunSummary } from "../format/event.js";

export const BUNDLE_FORMAT = "harnessx.incident";
export const BUNDLE_VERSION = 1;
export const SUPPORTED_BUNDLE_VERSIONS: readonly number[] = [1];

/** Member names inside the tar. */
export const MEMBER = {
  manifest: "manifest.json",
  run: "run.json",
  events: "events.ndjson.zst",
  sums: "SHA256SUMS",
  artifact: (sha256: string) => `artifacts/${sha256}.zst`,
} as const;

export interface BundleMember {
  path: string;
  /** Size as stored in the tar. */
  bytes: number;
  sha256: string;
  /**
   * Decompressed size of a zstd member (events, artifacts): readers refuse a member that would
   * inflate past it. Absent in bundles written before it was recorded; readers then apply only
   * their ceiling.
   */
  contentBytes?: number;
}

/** `manifest.json`, the first member of every bundle. */
export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  version: number;
  createdAt: string;
  producer: { recorder: string; core: string; node: string };
  run: {
    runId: string;
    agent: string;
    sessionId: string;
    status: RunManifest["status"];
    models: string[];
    startedAt: number;
    endedAt: number | null;
    error: RunManifest["error"] | null;
    summary: RunSummary;
  };
  trigger: { reason: string; at: string };
  window: { fromTs: number | null; toTs: number | null };
  countsByKind: Record<string, number>;
  dropped: { events: number; gaps: Array<{ seq: number; count: number; fromTs: number; toTs: number }> };
  redaction: RunManifest["redaction"] | "unknown";
  /**
   * Spilled results the events reference. Unless exported raw (`--include-raw-spills`), each is
   * a redacted copy, stored under the sha256 of its new content: `copies` maps the id the events
   * name to that member's id. Absent in bundles of older versions.
   */
  spills?: { count: number; redacted: boolean; copies: Record<string, string> };
  /** Artifacts the events reference that were no longer in the store at export time. */
  missingArtifacts: string[];
  /** Every other member except SHA256SUMS, with size and sha256. */
  members: BundleMember[];
}

import type { RunManifest, RunSummary } from "../format/event.js";

/** `format` of every incident bundle's `manifest.json`. */
export const BUNDLE_FORMAT = "harnessx.incident";
/** The bundle format version this recorder writes for a run without linked runs (readers of version 1 open it). */
export const BUNDLE_VERSION = 1;
/** The version of a bundle that holds linked runs (`linkedRuns`, `linked/<runId>.tar`): subagents' runs. */
export const LINKED_BUNDLE_VERSION = 2;
export const SUPPORTED_BUNDLE_VERSIONS: readonly number[] = [1, 2];

/** Member names inside the tar. */
export const MEMBER = {
  manifest: "manifest.json",
  run: "run.json",
  events: "events.ndjson.zst",
  sums: "SHA256SUMS",
  artifact: (sha256: string) => `artifacts/${sha256}.zst`,
  /** A linked run's own bundle, nested whole; `name` is its run directory name. */
  linked: (name: string) => `linked/${name}.tar`,
} as const;

/** A run bundled with the bundle's run: one its tool calls started (a subagent's run), with its own children inside its bundle. */
export interface LinkedRunEntry {
  /** The child run's id. */
  runId: string;
  /** The parent's `execute_tool` span the child's run hangs under. */
  parentSpanId?: string;
  /** The member holding the child's bundle (`linked/<runId>.tar`), verified like any bundle when this one is opened. */
  member: string;
}

/** One member of the bundle's tar, as `manifest.json` lists it. */
export interface BundleMember {
  /** Path inside the tar, e.g. `run.json` or `artifacts/<sha256>.zst`. */
  path: string;
  /** Size as stored in the tar. */
  bytes: number;
  /** sha256 of the member's bytes as stored in the tar. */
  sha256: string;
  /**
   * Decompressed size of a zstd member (events, artifacts): readers refuse a member that would
   * inflate past it. Absent in bundles written before it was recorded; readers then apply only
   * their ceiling.
   */
  contentBytes?: number;
}

/**
 * `manifest.json`'s signature: Ed25519 over the manifest in canonical JSON (keys sorted, no
 * spaces) with this object's `value` left out, so it covers the signer's key and every member's
 * checksum (a linked run's bundle is a member).
 */
export interface BundleSignature {
  /** Always `"ed25519"`. */
  algorithm: "ed25519";
  /** The signer's public key: its 32 raw bytes, base64. */
  publicKey: string;
  /** The signature's 64 bytes, base64. */
  value: string;
}

/** `manifest.json`, the first member of every bundle. */
export interface BundleManifest {
  /** Always `BUNDLE_FORMAT`; anything else is not an incident bundle. */
  format: typeof BUNDLE_FORMAT;
  /** Format version; readers refuse versions they do not know (`BundleVersionError`). */
  version: number;
  /** ISO 8601 time the bundle was written. */
  createdAt: string;
  /** Versions of the software that wrote the bundle (not necessarily the one that recorded the run). */
  producer: {
    /** Version of `@harnessx/recorder`. */
    recorder: string;
    /** Version of `@harnessx/core`, or `"unknown"`. */
    core: string;
    /** Node.js version, e.g. `"v20.19.0"`. */
    node: string;
  };
  /** The run, as its `run.json` describes it; names redacted again with the run's own policy. */
  run: {
    /** The run's id. */
    runId: string;
    /** The agent's name. */
    agent: string;
    /** The session the run belongs to. */
    sessionId: string;
    /** Where the run stood at export time. */
    status: RunManifest["status"];
    /** Models the run used. */
    models: string[];
    /** Milliseconds since the epoch when the run started. */
    startedAt: number;
    /** Milliseconds since the epoch when the run ended; null if it was still open. */
    endedAt: number | null;
    /** Why the run failed; null when it did not fail with an error. */
    error: RunManifest["error"] | null;
    /** Totals counted from the bundled events themselves. */
    summary: RunSummary;
  };
  /** Why and when the bundle was made. */
  trigger: {
    /** The export's reason: `"on_failure"`, `"manual"`, or what the caller passed. */
    reason: string;
    /** ISO 8601 time of the export. */
    at: string;
  };
  /** Time span of the bundled events. */
  window: {
    /** `ts` of the first event (ms since the epoch); null when there are none. */
    fromTs: number | null;
    /** `ts` of the last event (ms since the epoch); null when there are none. */
    toTs: number | null;
  };
  /** Bundled events per `kind` (the same as `run.summary.byKind`). */
  countsByKind: Record<string, number>;
  /** Events the recorder had to drop during the run. */
  dropped: {
    /** Events dropped in all. */
    events: number;
    /** One entry per `recorder.dropped` event. */
    gaps: Array<{
      /** `seq` of the `recorder.dropped` event. */
      seq: number;
      /** Events dropped in this gap. */
      count: number;
      /** Time of the first dropped event, in ms since the epoch. */
      fromTs: number;
      /** Time of the last dropped event, in ms since the epoch. */
      toTs: number;
    }>;
  };
  /** The run's redaction policy; `"unknown"` for runs recorded before it was written down. */
  redaction: RunManifest["redaction"] | "unknown";
  /**
   * Spilled results the events reference. Unless exported raw (`--include-raw-spills`), each is
   * a redacted copy, stored under the sha256 of its new content: `copies` maps the id the events
   * name to that member's id. Absent in bundles of older versions.
   */
  spills?: {
    /** Spilled results the events reference. */
    count: number;
    /** True when they were bundled as redacted copies, false when raw. */
    redacted: boolean;
    /** Id named by the events → id of the redacted copy in the bundle, for copies that changed. */
    copies: Record<string, string>;
  };
  /** Artifacts the events reference that were no longer in the store at export time. */
  missingArtifacts: string[];
  /** Runs the run's tool calls started (subagents), each a nested bundle; absent (version 1) when there are none. */
  linkedRuns?: LinkedRunEntry[];
  /** Every other member except SHA256SUMS, with size and sha256. */
  members: BundleMember[];
  /** Who signed the bundle (`exportIncident` signs with the user's key); absent in an unsigned bundle, as every bundle written before signing was. */
  signature?: BundleSignature;
}

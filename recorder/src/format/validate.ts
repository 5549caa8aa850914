// Shapes of everything a reader takes from disk: event lines, run.json, sealed-segment sidecars
// and bundle manifests. Files are input like any other (a crash, a disk, an attacker may have
// written them), so readers check them here before trusting a field. Extra fields are allowed:
// newer writers may add some.
import { ALL_HOOK_EVENTS } from "@harnessx/core/extension";
import type { RecordedRunStatus, RecorderEventKind } from "./event.js";
import {
  anything,
  arrayOf,
  boolean,
  count,
  finite,
  is,
  literal,
  nonEmpty,
  nullable,
  object,
  oneOf,
  positive,
  recordOf,
  sha256,
  string,
  type Schema,
} from "./schema.js";

export type { Schema } from "./schema.js";

/** Every status a run.json may hold. */
export const RUN_STATUSES: readonly RecordedRunStatus[] = [
  "running",
  "completed",
  "failed",
  "cancelled",
  "awaiting_approval",
  "incomplete",
  "crashed",
];

/** The recorder's own event kinds. */
export const RECORDER_EVENT_KINDS: readonly RecorderEventKind[] = ["recorder.dropped", "recorder.recovered"];

/** Every event kind this version writes: the hook event names and the recorder's own kinds. */
export const KNOWN_EVENT_KINDS: readonly string[] = [...ALL_HOOK_EVENTS, ...RECORDER_EVENT_KINDS];

export const SUMMARY = object({
  events: count,
  byKind: recordOf(count),
  inputTokens: finite,
  outputTokens: finite,
  modelCalls: count,
  toolCalls: count,
  errors: count,
  dropped: count,
});
const SKETCH = object({ count, min: finite, max: finite, zero: count, buckets: recordOf(count) });
const ROLLUP = object({
  bytesByKind: recordOf(count),
  models: recordOf(
    object(
      { calls: count, inputTokens: finite, outputTokens: finite },
      { costUsd: nullable(finite), unpricedCalls: count, cacheReadTokens: finite, cacheWriteTokens: finite },
    ),
  ),
  tools: recordOf(object({ calls: count, errors: count, latency: SKETCH })),
  spills: object({ count, bytes: count }),
  redactedValues: count,
});
export const RUN_ERROR = object({ message: string }, { name: string, code: string });
const EXTENSION = object(
  { name: string, level: string },
  {
    source: string,
    version: string,
    tools: arrayOf(string),
    prompts: arrayOf(string),
    policies: arrayOf(string),
    lifecycle: arrayOf(string),
    middleware: arrayOf(string),
    observers: arrayOf(string),
    commands: arrayOf(string),
    templates: arrayOf(string),
    messageTypes: arrayOf(string),
  },
);

// Conditions are plain strings: one a newer recorder adds must not make the whole run unreadable.
const RETAIN = object({ always: arrayOf(string) }, { slowerThanMs: finite, costAbove: finite, sample: finite });

// The policy a run was recorded with, for people to read (no reader compiles its patterns); readers
// print its names and counts, so its shape is checked like any field they read.
const REDACTION_RULES = object(
  { keys: arrayOf(string), patterns: arrayOf(object({ name: string }, { source: string })) },
  { secretShapes: arrayOf(string), custom: boolean },
);
const REDACTION: Schema = (value, path) => (value === "off" ? undefined : REDACTION_RULES(value, path));

const TOOL = object(
  { name: string, schemaSha256: string },
  {
    description: string,
    extension: string,
    permission: string,
    concurrent: is((v) => typeof v === "boolean", "true or false"),
    replayPolicy: string,
    timeoutSeconds: finite,
    attempts: finite,
  },
);

/** One line of a segment or of a bundle's events. */
export const EVENT_SCHEMA = object(
  { v: literal(1), seq: positive, ts: finite, runId: nonEmpty, kind: nonEmpty, attrs: recordOf(anything) },
  {
    spanId: nullable(string),
    parentSpanId: nullable(string),
    payload: anything,
    payloadRef: object({ sha256, bytes: count, preview: string }),
    redacted: arrayOf(string),
  },
);

/** `format` of every run.json. */
export const RUN_FORMAT = "harnessx.run";

/** The run.json versions (`v`) this reader knows; a newer one is refused rather than misread. */
export const SUPPORTED_RUN_VERSIONS: readonly number[] = [1];

/** A run's metadata: names to strings, finite numbers or booleans. */
export const RUN_METADATA = recordOf(
  is(
    (v) => typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v)),
    "a string, finite number or boolean",
  ),
);

/** The fields every description of a run carries: its run.json, a bundle's manifest, the run catalog. */
export const RUN_FIELDS = {
  runId: nonEmpty,
  status: oneOf(RUN_STATUSES),
  agent: string,
  sessionId: string,
  models: arrayOf(string),
  startedAt: finite,
  endedAt: nullable(finite),
};

/**
 * `runs/<runId>/run.json`, and `run.json` in a bundle: the versioned schema readers check it
 * against. `format` and `v` are absent only in recordings older than them (read as version 1).
 */
export const RUN_MANIFEST_SCHEMA = object(RUN_FIELDS, {
  format: literal(RUN_FORMAT),
  v: is(
    (v) => SUPPORTED_RUN_VERSIONS.includes(v as number),
    `a run.json version this reader knows (${SUPPORTED_RUN_VERSIONS.join(", ")})`,
  ),
  traceId: string,
  runSpanId: string,
  parentRunId: nonEmpty,
  parentSpanId: string,
  error: nullable(RUN_ERROR),
  summary: SUMMARY,
  extensions: arrayOf(EXTENSION),
  artifacts: arrayOf(sha256),
  redaction: REDACTION,
  provider: string,
  tools: arrayOf(TOOL),
  rollup: ROLLUP,
  framework: string,
  service: string,
  retain: RETAIN,
  detail: literal("summary"),
  reducedBy: literal("retain"),
  durable: boolean,
  metadata: RUN_METADATA,
  tags: arrayOf(string),
});

/** `NNNNNN.ndjson.zst.sha256`: the fields readers rely on. */
export const SEALED_SEGMENT_SCHEMA = object(
  { sha256, bytes: count },
  { contentSha256: sha256, compressedBytes: count, events: count },
);

/** A bundle's `manifest.json` (its format and version are checked first, for their own errors). */
export const BUNDLE_MANIFEST_SCHEMA = object(
  {
    createdAt: string,
    run: object({ ...RUN_FIELDS, error: nullable(RUN_ERROR), summary: SUMMARY }),
    trigger: object({ reason: string, at: string }),
    window: object({ fromTs: nullable(finite), toTs: nullable(finite) }),
    countsByKind: recordOf(count),
    dropped: object({ events: count, gaps: arrayOf(object({ seq: count, count, fromTs: finite, toTs: finite })) }),
    missingArtifacts: arrayOf(sha256),
    members: arrayOf(object({ path: nonEmpty, bytes: count, sha256 }, { contentBytes: count })),
  },
  {
    spills: object({ count, redacted: boolean, copies: recordOf(sha256) }),
    linkedRuns: arrayOf(object({ runId: nonEmpty, member: nonEmpty }, { parentSpanId: string })),
    signature: object({
      algorithm: literal("ed25519"),
      publicKey: is(
        (v) => typeof v === "string" && /^[A-Za-z0-9+/]{43}=$/.test(v),
        "an Ed25519 public key (32 bytes, base64)",
      ),
      value: is(
        (v) => typeof v === "string" && /^[A-Za-z0-9+/]{86}==$/.test(v),
        "an Ed25519 signature (64 bytes, base64)",
      ),
    }),
  },
);

/** Parses JSON text and checks it; returns the value or what is wrong with it. */
export function parseChecked<T>(text: string, schema: Schema): { value: T } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `not valid JSON (${(error as Error).message})` };
  }
  const problem = schema(value, "");
  return problem ? { problem } : { value: value as T };
}

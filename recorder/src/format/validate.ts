// Shapes of everything a reader takes from disk: event lines, run.json, sealed-segment sidecars
// and bundle manifests. Files are input like any other (a crash, a disk, an attacker may have
// written them), so readers check them here before trusting a field. Extra fields are allowed:
// newer writers may add some.
import { ALL_HOOK_EVENTS } from "@harnessx/core/extension";
import type { RecordedRunStatus, RecorderEventKind } from "./event.js";

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

/** Returns what is wrong with `value` at `path` ("members[2].sha256 must be ..."), or undefined. */
export type Schema = (value: unknown, path: string) => string | undefined;

const is =
  (test: (v: unknown) => boolean, what: string): Schema =>
  (value, path) =>
    test(value) ? undefined : `${path || "the value"} must be ${what}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const string = is((v) => typeof v === "string", "a string");
const nonEmpty = is((v) => typeof v === "string" && v.length > 0, "a non-empty string");
const finite = is((v) => typeof v === "number" && Number.isFinite(v), "a finite number");
const count = is((v) => Number.isSafeInteger(v) && (v as number) >= 0, "a whole number >= 0");
const positive = is((v) => Number.isSafeInteger(v) && (v as number) > 0, "a whole number > 0");
const sha256 = is((v) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v), "a sha256 (64 lowercase hex characters)");
const anything: Schema = () => undefined;
const boolean = is((v) => typeof v === "boolean", "true or false");
const literal = (expected: unknown): Schema => is((v) => v === expected, JSON.stringify(expected));
const oneOf = (values: readonly string[]): Schema =>
  is((v) => values.includes(v as string), `one of ${values.join(", ")}`);
const nullable =
  (inner: Schema): Schema =>
  (value, path) =>
    value === null ? undefined : inner(value, path);

function arrayOf(item: Schema): Schema {
  return (value, path) => {
    if (!Array.isArray(value)) return `${path || "the value"} must be an array`;
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

function recordOf(item: Schema): Schema {
  return (value, path) => {
    if (!isRecord(value)) return `${path || "the value"} must be an object`;
    // Every event's attrs are a record of anything: no need to walk (and allocate) its entries.
    if (item === anything) return undefined;
    for (const [key, entry] of Object.entries(value)) {
      const problem = item(entry, `${path}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** An object with these fields; a field whose schema is wrapped in `optional` may be absent. */
function object(fields: Record<string, Schema>, optionalFields: Record<string, Schema> = {}): Schema {
  // Listed once: every event line of a run is checked against this.
  const required = Object.entries(fields);
  const optional = Object.entries(optionalFields);
  return (value, path) => {
    if (!isRecord(value)) return `${path || "the value"} must be an object`;
    for (const [key, schema] of required) {
      if (!(key in value)) return `${path ? `${path}.${key}` : key} is missing`;
      const problem = schema(value[key], path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    for (const [key, schema] of optional) {
      const problem = value[key] === undefined ? undefined : schema(value[key], path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    return undefined;
  };
}

const SUMMARY = object({
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
const RUN_ERROR = object({ message: string }, { name: string, code: string });
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

/**
 * `runs/<runId>/run.json`, and `run.json` in a bundle: the versioned schema readers check it
 * against. `format` and `v` are absent only in recordings older than them (read as version 1).
 */
export const RUN_MANIFEST_SCHEMA = object(
  {
    runId: nonEmpty,
    status: oneOf(RUN_STATUSES),
    agent: string,
    sessionId: string,
    models: arrayOf(string),
    startedAt: finite,
    endedAt: nullable(finite),
  },
  {
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
  },
);

/** `NNNNNN.ndjson.zst.sha256`: the fields readers rely on. */
export const SEALED_SEGMENT_SCHEMA = object(
  { sha256, bytes: count },
  { contentSha256: sha256, compressedBytes: count, events: count },
);

/** A bundle's `manifest.json` (its format and version are checked first, for their own errors). */
export const BUNDLE_MANIFEST_SCHEMA = object(
  {
    createdAt: string,
    run: object({
      runId: nonEmpty,
      agent: string,
      sessionId: string,
      status: oneOf(RUN_STATUSES),
      models: arrayOf(string),
      startedAt: finite,
      endedAt: nullable(finite),
      error: nullable(RUN_ERROR),
      summary: SUMMARY,
    }),
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

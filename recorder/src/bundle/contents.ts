import { isDeepStrictEqual } from "node:util";
import type { RecordedEvent, RunManifest, RunSummary } from "../format/event.js";
import { BUNDLE_MANIFEST_SCHEMA, parseChecked, RUN_MANIFEST_SCHEMA } from "../format/validate.js";
import { eventLines, type BadLine } from "../store/event-lines.js";
import { EventLineTooLongError } from "../format/read-limits.js";
import { countEvent, emptySummary } from "../format/run-summary.js";
import { referencedArtifacts } from "../store/references.js";
import { BundleContentError, BundleFormatError, BundleVersionError } from "./errors.js";
import { BUNDLE_FORMAT, MEMBER, SUPPORTED_BUNDLE_VERSIONS, type BundleManifest } from "./manifest.js";

/** `manifest.json`: the format and version first (they have their own errors), then its shape. */
export function parseManifest(path: string, bytes: Buffer): BundleManifest {
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new BundleContentError(path, MEMBER.manifest, `not valid JSON (${(error as Error).message})`);
  }
  const fields = (typeof manifest === "object" && manifest !== null ? manifest : {}) as Record<string, unknown>;
  if (fields.format !== BUNDLE_FORMAT)
    throw new BundleFormatError(path, `manifest.json does not name the format "${BUNDLE_FORMAT}"`);
  if (!SUPPORTED_BUNDLE_VERSIONS.includes(fields.version as number))
    throw new BundleVersionError(path, fields.version, SUPPORTED_BUNDLE_VERSIONS);
  const problem = BUNDLE_MANIFEST_SCHEMA(manifest, "");
  if (problem) throw new BundleContentError(path, MEMBER.manifest, problem);
  return manifest as BundleManifest;
}

/** `run.json`, checked against the run manifest's shape. */
export function parseRun(path: string, bytes: Buffer): RunManifest {
  const parsed = parseChecked<RunManifest>(bytes.toString("utf8"), RUN_MANIFEST_SCHEMA);
  if ("problem" in parsed) throw new BundleContentError(path, MEMBER.run, parsed.problem);
  return parsed.value;
}

/** What a bundle's events add up to: the totals its manifest states, and the artifacts they reference. */
export interface EventTotals {
  summary: RunSummary;
  referenced: Set<string>;
}

/**
 * The events, a line at a time: every line must be an event (a bundle is written whole, so a bad
 * line is damage or tampering). Their totals are added up as they are read; `keep` receives the
 * events, or none is kept (a check of the bundle holds one line's event at a time).
 */
export function tallyEvents(path: string, content: Buffer, keep?: RecordedEvent[]): EventTotals {
  const totals: EventTotals = { summary: emptySummary(), referenced: new Set() };
  let firstBad: BadLine | undefined;
  let badLines = 0;
  for (const parsed of refusingLongLines(path, eventLines(content))) {
    if (!("kind" in parsed)) {
      badLines++;
      firstBad ??= parsed;
      continue;
    }
    // After a bad line the rest is only counted, for the message.
    if (firstBad) continue;
    countEvent(totals.summary, parsed);
    for (const id of referencedArtifacts([parsed])) totals.referenced.add(id);
    keep?.push(parsed);
  }
  if (firstBad)
    throw new BundleContentError(
      path,
      MEMBER.events,
      `line ${firstBad.line}: ${firstBad.problem}${badLines > 1 ? ` (and ${badLines - 1} more bad line(s))` : ""}`,
    );
  return totals;
}

/** A line over the reader's limit is not an event of any bundle the exporter writes: the bundle is refused, naming the line. */
function* refusingLongLines<T>(path: string, lines: Generator<T>): Generator<T> {
  try {
    yield* lines;
  } catch (error) {
    if (error instanceof EventLineTooLongError) throw new BundleContentError(path, MEMBER.events, error.message);
    throw error;
  }
}

/**
 * The manifest describes the run and events that the bundle holds: same run id and status as
 * run.json, the totals (events, per kind, dropped) the events add up to, and the artifacts the
 * events reference. The exporter computes them from the same events, so any difference is an edit.
 */
export function checkConsistency(
  path: string,
  manifest: BundleManifest,
  run: RunManifest,
  events: EventTotals,
  artifacts: readonly string[],
): void {
  const claims = manifest.run;
  if (claims.runId !== run.runId || claims.status !== run.status) {
    throw new BundleContentError(
      path,
      MEMBER.manifest,
      `it describes run ${claims.runId} (${claims.status}), ${MEMBER.run} is run ${run.runId} (${run.status})`,
    );
  }
  const actual = events.summary;
  const said = { events: claims.summary.events, dropped: manifest.dropped.events, byKind: manifest.countsByKind };
  const found = { events: actual.events, dropped: actual.dropped, byKind: actual.byKind };
  if (
    !isDeepStrictEqual(said, found) ||
    claims.summary.dropped !== actual.dropped ||
    !isDeepStrictEqual(claims.summary.byKind, actual.byKind)
  ) {
    throw new BundleContentError(
      path,
      MEMBER.manifest,
      `it counts ${said.events} events (${said.dropped} dropped), ${MEMBER.events} holds ${found.events} (${found.dropped} dropped)`,
    );
  }
  // Exactly the artifacts the events reference are inside (a spill as its redacted copy, under the
  // copy's own id), or listed as missing at export time.
  const copies = manifest.spills?.copies ?? {};
  const referenced = new Set([...events.referenced].map((id) => copies[id] ?? id));
  const missing = new Set(manifest.missingArtifacts);
  const absent = [...referenced].find((id) => !artifacts.includes(id) && !missing.has(id));
  if (absent)
    throw new BundleContentError(
      path,
      MEMBER.events,
      `an event references artifact ${absent}, which is neither inside nor listed as missing`,
    );
  const extra = artifacts.find((id) => !referenced.has(id) || missing.has(id));
  if (extra)
    throw new BundleContentError(
      path,
      MEMBER.artifact(extra),
      missing.has(extra) ? "the manifest lists it as missing" : "no event references it",
    );
}

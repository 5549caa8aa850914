import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore, sha256Hex } from "@harnessx/artifacts";
import {
  artifactsOf,
  exportIncident,
  SealedRunWriter,
  type IncidentExport,
  type RecordedEvent,
  type Recording,
  type SigningKey,
} from "@harnessx/recorder";
import { Pseudonymizer, type ScrubStats } from "./pseudonymizer.js";
import type { ScrubRules } from "./rules.js";

export interface ScrubOutcome {
  bundle: IncidentExport;
  stats: ScrubStats;
  /** Artifacts rewritten because their content changed (new sha256). */
  artifactsRewritten: number;
  mapping: Record<string, string>;
}

/** Scrubbed artifacts being compressed and written at once, while scrubbing goes on. */
const ARTIFACT_WRITES = 4;

function scrubText(p: Pseudonymizer, text: string): string {
  try {
    return JSON.stringify(p.scrubValue(JSON.parse(text)));
  } catch {
    return p.scrubString(text);
  }
}

/** A copy of a JSON value with every string equal to `from` (an artifact id) replaced by `to`. */
function renameId(value: unknown, from: string, to: string): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((v) => renameId(v, from, to));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameId(v, from, to)]));
  return value;
}

/**
 * Writes a scrubbed copy of a run as a new bundle: every event's attributes and payload, and
 * every artifact they reference, go through the pseudonymizer; artifacts get new ids; the bundle
 * itself is written by the recorder's `exportIncident` from a private temporary store, so its
 * format is exactly the recorder's. Runs the run linked (subagents) are scrubbed with the same
 * pseudonyms and bundled with it, as `trace export` bundles them. The source is only read. The
 * scrubbed bundle is a new document: `signingKey` (the scrubber's) signs it.
 */
export async function scrubRun(
  recording: Recording,
  rules: ScrubRules,
  out: string,
  reason: string,
  signingKey: SigningKey,
  onEvent?: () => void,
): Promise<ScrubOutcome> {
  const p = new Pseudonymizer(rules);
  const temp = await mkdtemp(join(tmpdir(), "trace-scrub-"));
  try {
    const renamed = new Map<string, string>();
    const scrubTree = async (run: Recording): Promise<void> => {
      await scrubInto(temp, run, p, rules, renamed, onEvent);
      for (const child of await run.linkedRuns()) await scrubTree(child);
    };
    await scrubTree(recording);
    const bundle = await exportIncident({ dir: temp, runId: recording.run.runId, reason, out, signingKey });
    return { bundle, stats: p.stats(), artifactsRewritten: renamed.size, mapping: p.mapping() };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** Writes the scrubbed copy of one run (its events, artifacts and run.json) into the store `temp`. */
async function scrubInto(
  temp: string,
  recording: Recording,
  p: Pseudonymizer,
  rules: ScrubRules,
  renamed: Map<string, string>,
  onEvent?: () => void,
): Promise<void> {
  const artifacts = new ArtifactStore(temp);
  const writes = new Set<Promise<unknown>>();
  // The scrubbed text is hashed here (its id is known at once) and stored in the background.
  const rewrite = async (sha256: string): Promise<{ sha256: string; bytes: number; text: string }> => {
    const text = scrubText(p, (await recording.artifacts.bytes(sha256)).toString("utf8"));
    const id = sha256Hex(text);
    renamed.set(sha256, id);
    if (writes.size >= ARTIFACT_WRITES) await Promise.race(writes);
    const write = artifacts.put(text).finally(() => writes.delete(write));
    writes.add(write);
    write.catch(() => undefined);
    return { sha256: id, bytes: Buffer.byteLength(text), text };
  };
  const writer = new SealedRunWriter(temp, recording.run.runId);
  const scrubEvent = async (event: RecordedEvent): Promise<RecordedEvent> => {
    const clean: RecordedEvent = { ...event, attrs: p.scrubValue(event.attrs ?? {}) };
    if (p.dropsKind(event.kind)) {
      delete clean.payloadRef;
      clean.payload = p.removedPayload(event.kind);
    } else if (event.payloadRef) {
      const stored = await rewrite(event.payloadRef.sha256);
      clean.payloadRef = {
        sha256: stored.sha256,
        bytes: stored.bytes,
        preview: stored.text.slice(0, event.payloadRef.preview.length),
      };
    } else if (event.payload !== undefined) clean.payload = p.scrubValue(event.payload);
    for (const id of artifactsOf(event.attrs)) {
      const stored = renamed.get(id) ?? (await rewrite(id).catch(() => undefined))?.sha256;
      if (stored && stored !== id) {
        clean.attrs = renameId(clean.attrs, id, stored) as Record<string, unknown>;
        clean.payload = renameId(clean.payload, id, stored);
      }
    }
    return clean;
  };
  for await (const event of recording.events()) {
    await writer.append(await scrubEvent(event));
    onEvent?.();
  }
  await Promise.all(writes);
  // Every free-text field of the run's metadata; ids, times and counts stay as they are.
  const run = {
    ...recording.run,
    agent: p.scrubString(recording.run.agent),
    models: recording.run.models.map((model) => p.scrubString(model)),
    config: p.scrubValue(recording.run.config),
    ...(recording.run.extensions ? { extensions: p.scrubValue(recording.run.extensions) } : {}),
    ...(recording.run.tools ? { tools: p.scrubValue(recording.run.tools) } : {}),
    ...(recording.run.error ? { error: p.scrubValue(recording.run.error) } : {}),
    scrubbed: {
      at: new Date().toISOString(),
      defaults: rules.defaults,
      keys: rules.keys,
      patterns: rules.patterns.map((r) => r.name),
      kinds: rules.kinds,
    },
  };
  await writer.finish(run);
}

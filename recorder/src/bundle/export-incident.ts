import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { ArtifactStore } from "@harnessx/artifacts";
import { Redactor } from "@harnessx/core/extension";
import { producerVersions, runDirOf, safeRunDirName } from "../format/layout.js";
import { assertEventsKept, readRunManifest, readRunManifestFile } from "../store/run-manifest.js";
import { artifactCopy, type ArtifactCopy } from "../store/artifact-copy.js";
import { unappliedPatterns } from "../store/recorded-policy.js";
import { buildEventMember } from "./event-member.js";
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  LINKED_BUNDLE_VERSION,
  MEMBER,
  type BundleManifest,
  type BundleMember,
  type LinkedRunEntry,
} from "./manifest.js";
import { childRunsOf } from "../store/linked-runs.js";
import { loadSigningKey, type SigningKey } from "../signing/signing-key.js";
import { signManifest } from "./signature.js";

/** What `exportIncident` bundles, and where. */
export interface ExportIncidentRequest {
  /** Store root. */
  dir: string;
  /** The run to bundle; it must have a `run.json` in the store. */
  runId: string;
  /** Why the bundle was made ("on_failure", "manual", a ticket number...). */
  reason: string;
  /** Output file. Default `<dir>/incidents/<runId>-<UTC time>.tar`. */
  out?: string;
  /**
   * Copy spilled results as stored instead of redacted. Spills hold raw tool output (the model
   * queries real data); a bundle is made to be shared, so it gets redacted copies unless this is set.
   */
  includeRawSpills?: boolean;
  /**
   * The policy that redacts what the bundle adds (the manifest's names, error and reason) and its
   * copies of spilled results: your agent's (`agent.redactor`; the recorder passes its own), else
   * the default policy. The run's recorded policy is never rebuilt: its patterns came from a file
   * anyone could have written (see `IncidentExport.unappliedPatterns`).
   */
  redactor?: Redactor;
  /**
   * The key that signs the bundle (and its linked runs' bundles): default the user's
   * (`loadSigningKey()`, made on first use in `keysDir()`); `false` writes it unsigned.
   */
  signingKey?: SigningKey | false;
}

/** What `exportIncident` wrote. */
export interface IncidentExport {
  /** The bundle file written. */
  path: string;
  /** The run bundled. */
  runId: string;
  /** The fingerprint of the key that signed it; null when it was written unsigned. */
  signedBy: string | null;
  /** Size of the bundle file, in bytes. */
  bytes: number;
  /** Events bundled. */
  events: number;
  /** Artifact members bundled (payloads and spilled results). */
  artifacts: number;
  /** Referenced artifacts no longer in the store, or corrupt there (listed in the manifest's `missingArtifacts`). */
  missingArtifacts: string[];
  /**
   * Which of `missingArtifacts` result spilling wrote (the `spill` events name them): the usual
   * cause is a spill store in another folder than the recorder's, so the CLI names the owner.
   */
  missingSpills: string[];
  /** The linked runs bundled with it (its subagents' runs, theirs included), by id. */
  linkedRuns: string[];
  /**
   * Names of the value patterns the run's `run.json` says it was recorded with that this export's
   * policy does not apply (the events were redacted when recorded; spilled results and the
   * manifest's text were redacted with `ExportIncidentRequest.redactor` only).
   */
  unappliedPatterns: string[];
  /** Spilled results included, and whether as redacted copies or raw. */
  spills: {
    /** Spilled results bundled. */
    count: number;
    /** How many of them changed when redacted (each stored as a copy under a new id). */
    redacted: number;
    /** True when they were bundled as stored, unredacted (`includeRawSpills`). */
    raw: boolean;
  };
}

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Writes one incident bundle: a tar with `manifest.json` first, `run.json`, the run's events
 * (`events.ndjson.zst`: the sealed segments' zstd frames copied as is, concatenated), exactly
 * the artifacts they reference (`artifacts/<sha256>.zst`, the store's frames copied as is) and
 * `SHA256SUMS` (`sha256sum -c` format); the manifest is signed (`signingKey`). `tar -xf` then
 * `zstd -d` read it; `openBundle` verifies it. Written to a temp file and renamed into place.
 */
export async function exportIncident(request: ExportIncidentRequest): Promise<IncidentExport> {
  const signingKey = request.signingKey ?? (await loadSigningKey()).key;
  return exportBundle({ ...request, signingKey }, new Set());
}

/** `exportIncident` of a run whose `ancestors` are being bundled: a run.json naming one of them as its child is not followed again. */
async function exportBundle(request: ExportIncidentRequest, ancestors: ReadonlySet<string>): Promise<IncidentExport> {
  const runDir = runDirOf(request.dir, request.runId);
  // The bundle's run.json is the store's, byte for byte, as read once.
  const { manifest: run, bytes: runJson } = await readRunManifestFile(runDir);
  assertEventsKept(run);
  const events = await buildEventMember(runDir);
  const members = new Map<string, Buffer>([
    [MEMBER.run, runJson],
    [MEMBER.events, events.frames],
  ]);
  const contentBytes = new Map<string, number>([[MEMBER.events, events.contentBytes]]);
  const store = new ArtifactStore(request.dir);
  const redactor = request.redactor ?? new Redactor();
  const spilled = events.spilled;
  const missingArtifacts: string[] = [];
  const redactedSpills: Record<string, string> = {};
  // Artifacts are read (and verified against their ids) several at a time, then added in id order.
  const ids = [...events.referenced].sort();
  const copies: Array<ArtifactCopy | undefined> = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++)
      copies[i] = await artifactCopy(
        store,
        ids[i],
        spilled.has(ids[i]) && !request.includeRawSpills ? redactor : undefined,
      );
  };
  await Promise.all(Array.from({ length: Math.min(ARTIFACT_READS, ids.length) }, worker));
  ids.forEach((id, i) => {
    const copy = copies[i];
    if (!copy) {
      missingArtifacts.push(id);
      return;
    }
    members.set(MEMBER.artifact(copy.id), copy.frame);
    contentBytes.set(MEMBER.artifact(copy.id), copy.bytes);
    if (copy.id !== id) redactedSpills[id] = copy.id;
  });
  const linked = await bundleChildren(request, run.runId, new Set([...ancestors, run.runId]));
  for (const child of linked) members.set(child.entry.member, child.bytes);
  const listed: BundleMember[] = [...members].map(([path, data]) => ({
    path,
    bytes: data.byteLength,
    sha256: sha256(data),
    ...(contentBytes.has(path) ? { contentBytes: contentBytes.get(path) } : {}),
  }));
  const { summary, gaps } = events;
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    version: linked.length > 0 ? LINKED_BUNDLE_VERSION : BUNDLE_VERSION,
    createdAt: new Date().toISOString(),
    producer: producerVersions(),
    run: {
      runId: run.runId,
      agent: redactor.redactText(run.agent),
      sessionId: redactor.redactText(run.sessionId),
      status: run.status,
      models: run.models.map((model) => redactor.redactText(model)),
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      error: run.error ? (redactor.redact(run.error, "error", []) as BundleManifest["run"]["error"]) : null,
      summary,
    },
    trigger: { reason: redactor.redactText(request.reason), at: new Date().toISOString() },
    window: events.window,
    countsByKind: summary.byKind,
    dropped: { events: summary.dropped, gaps },
    redaction: run.redaction ?? "unknown",
    spills: { count: spilled.size, redacted: !request.includeRawSpills, copies: redactedSpills },
    missingArtifacts,
    ...(linked.length > 0 ? { linkedRuns: linked.map((child) => child.entry) } : {}),
    members: listed,
  };
  const signed = request.signingKey ? signManifest(manifest, request.signingKey) : manifest;
  const manifestBytes = Buffer.from(`${JSON.stringify(signed, null, 2)}\n`);
  const sumLines = [`${sha256(manifestBytes)}  ${MEMBER.manifest}`, ...listed.map((m) => `${m.sha256}  ${m.path}`)];
  const sums = `${sumLines.join("\n")}\n`;

  const out =
    request.out ??
    join(
      request.dir,
      "incidents",
      `${safeRunDirName(request.runId)}-${new Date().toISOString().replace(/[:.]/g, "-")}.tar`,
    );
  await fs.mkdir(dirname(out), { recursive: true });
  const tmp = `${out}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const pack = tar.pack();
  const mtime = new Date();
  const writing = pipeline(pack, createWriteStream(tmp));
  const entries: Array<[string, Buffer]> = [
    [MEMBER.manifest, manifestBytes],
    ...members,
    [MEMBER.sums, Buffer.from(sums)],
  ];
  for (const [name, data] of entries) {
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name, size: data.byteLength, mode: 0o644, mtime }, data, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }
  pack.finalize();
  try {
    await writing;
    await fs.rename(tmp, out);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  const { size } = await fs.stat(out);
  const spills = {
    count: [...spilled].filter((id) => !missingArtifacts.includes(id)).length,
    redacted: Object.keys(redactedSpills).length,
    raw: request.includeRawSpills === true,
  };
  const linkedRuns = linked.flatMap((child) => child.runIds);
  return {
    path: out,
    runId: run.runId,
    signedBy: request.signingKey ? request.signingKey.fingerprint : null,
    bytes: size,
    events: summary.events,
    artifacts: members.size - 2 - linked.length,
    missingArtifacts,
    missingSpills: missingArtifacts.filter((id) => spilled.has(id)),
    linkedRuns,
    spills,
    unappliedPatterns: unappliedPatterns(run, redactor),
  };
}

/**
 * Each run the run's tool calls started (a subagent's, linked by its run.json), bundled whole
 * with its own children: the bundle of a parent holds the runs it delegated to.
 */
async function bundleChildren(
  request: ExportIncidentRequest,
  runId: string,
  ancestors: ReadonlySet<string>,
): Promise<Array<{ entry: LinkedRunEntry; bytes: Buffer; runIds: string[] }>> {
  const out = [];
  for (const child of await childRunsOf(request.dir, runId)) {
    // A child retention reduced to its summary has no events to bundle: the parent's bundle goes without it.
    if (ancestors.has(child.runId) || (await readRunManifest(runDirOf(request.dir, child.runId))).detail === "summary")
      continue;
    const tmp = join(tmpdir(), `hx-linked-${process.pid}-${randomBytes(6).toString("hex")}.tar`);
    try {
      const made = await exportBundle(
        { ...request, runId: child.runId, reason: `linked run of ${runId}`, out: tmp },
        ancestors,
      );
      const member = MEMBER.linked(safeRunDirName(child.runId));
      out.push({
        entry: { runId: child.runId, ...(child.parentSpanId ? { parentSpanId: child.parentSpanId } : {}), member },
        bytes: await fs.readFile(tmp),
        runIds: [child.runId, ...made.linkedRuns],
      });
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }
  return out;
}

/** Artifacts read at once while a bundle is written. */
const ARTIFACT_READS = 8;

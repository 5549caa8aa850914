import { createHash } from "node:crypto";
import type { RecordedEvent, RunManifest, RunSummary } from "../format/event.js";
import { verifyChecksums } from "./checksums.js";
import { checkConsistency, parseManifest, parseRun, tallyEvents } from "./contents.js";
import { BundleChecksumError, BundleContentError, BundleFormatError, BundleSignatureError } from "./errors.js";
import { DEFAULT_BUNDLE_LIMITS, MemberInflater, type BundleLimits } from "./inflate.js";
import { MEMBER, type BundleManifest } from "./manifest.js";
import { checkSignature, requireSigner, type BundleSigner } from "./signature.js";
import { readMembers } from "./tar-members.js";
import { eventLineRanges, eventLines, skipsPayload, withoutPayload, type SkipPayloads } from "../store/event-lines.js";

/** A bundle read back and verified. */
export interface OpenedBundle {
  /** The bundle file, as given to `openBundle`. */
  path: string;
  /** The bundle's `manifest.json`, verified. */
  manifest: BundleManifest;
  /** The key whose signature the manifest carries, verified; null for an unsigned bundle (anyone could have written it). */
  signer: BundleSigner | null;
  /** The run's `run.json` as the store held it at export time. */
  run: RunManifest;
  /** The run's events in `seq` order (as recorded: use `RequestRebuilder` for whole requests); empty with `keepEvents: false`. */
  events: RecordedEvent[];
  /** The events again, one at a time (parsed anew from the verified member with `keepEvents: false`), inline payloads left out where `skip` says. */
  eventsOneByOne(skip?: SkipPayloads): Generator<RecordedEvent>;
  /** The events member's lines as stored, one at a time. */
  lines(): Generator<string>;
  /** What the events add up to, as read (the manifest's totals were checked against it). */
  summary: RunSummary;
  /** Ids of the artifacts inside. */
  artifacts: string[];
  /** An artifact's uncompressed bytes (verified against its id). */
  artifact(sha256: string): Promise<Buffer>;
  /** Raw bytes of any member by its path. */
  member(path: string): Buffer | undefined;
  /** The linked runs' bundles (subagents' runs, `manifest.linkedRuns`), opened and verified the same way, in the manifest's order. */
  linked: OpenedBundle[];
}

/** Options of `openBundle`. */
export interface OpenBundleOptions {
  /** What the reader takes at most (defaults in `DEFAULT_BUNDLE_LIMITS`). */
  limits?: Partial<BundleLimits>;
  /**
   * Keep the events as objects once checked (default true). With false the events are checked a
   * line at a time and only the member's bytes are kept (a third or less of the memory):
   * `eventsOneByOne` parses them again when asked.
   */
  keepEvents?: boolean;
  /**
   * Fingerprints (`SHA256:...`) of the keys whose signature you accept: a bundle unsigned or
   * signed by another key is refused with `BundleSignerError`. Default: any signer, and unsigned
   * bundles (`OpenedBundle.signer` says which). A signature that does not verify is refused always.
   */
  signedBy?: readonly string[];
}

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/**
 * Reads an incident bundle and verifies all of it: `manifest.json` first, a known format
 * version, safe member paths, every member's size and sha256 against the manifest and
 * `SHA256SUMS`, nothing missing or extra, contents of the right shape that agree with the
 * manifest, and every artifact's content against its id. Decompression stays within the
 * manifest's declared sizes and the limits, checked before anything is inflated. A signed
 * manifest's signature must verify, and each linked run's bundle must be signed by the same key
 * as its parent (or both unsigned). Any failure is a typed `BundleError` naming what failed.
 */
export function openBundle(path: string, options: OpenBundleOptions = {}): Promise<OpenedBundle> {
  return openBundleData(path, options, undefined, 0);
}

/** Linked runs nest (a subagent's subagent); deeper than this is refused as a hostile bundle. */
const MAX_LINK_DEPTH = 8;

async function openBundleData(
  path: string,
  options: OpenBundleOptions,
  data: Buffer | undefined,
  depth: number,
): Promise<OpenedBundle> {
  const limits = { ...DEFAULT_BUNDLE_LIMITS, ...options.limits };
  const members = await readMembers(path, limits, data);
  const manifest = parseManifest(path, members.get(MEMBER.manifest)!);
  const artifacts = verifyChecksums(path, manifest, members);
  const signer = checkSignature(path, manifest);
  // The parent's signer vouches for its linked runs: only the outer bundle is held to `signedBy`.
  if (options.signedBy && depth === 0) requireSigner(path, signer, options.signedBy);
  const declared = new Map(manifest.members.map((m) => [m.path, m.contentBytes]));
  const inflater = new MemberInflater(path, limits);
  // Every frame's headers first: a bomb anywhere is refused before any member is inflated.
  for (const name of [MEMBER.events, ...artifacts.map(MEMBER.artifact)])
    inflater.check(name, members.get(name)!, declared.get(name));

  const run = parseRun(path, members.get(MEMBER.run)!);
  const events: RecordedEvent[] = [];
  const keep = options.keepEvents !== false;
  const inflated = await inflater.inflate(MEMBER.events, members.get(MEMBER.events)!, declared.get(MEMBER.events));
  const totals = tallyEvents(path, inflated, keep ? events : undefined);
  // The member's bytes stay only when the events do not (objects take several times their size).
  const content = keep ? undefined : inflated;
  checkConsistency(path, manifest, run, totals, artifacts);
  const readArtifact = async (id: string, using: MemberInflater): Promise<Buffer> => {
    const name = MEMBER.artifact(id);
    const frame = members.get(name);
    if (!frame) throw new BundleFormatError(path, `artifact ${JSON.stringify(id)} is not in this bundle`);
    const data = await using.inflate(name, frame, declared.get(name));
    if (sha256(data) !== id) throw new BundleChecksumError(path, name, "content does not match its sha256");
    return data;
  };
  for (const id of artifacts) await readArtifact(id, inflater);
  const linked: OpenedBundle[] = [];
  for (const entry of manifest.linkedRuns ?? []) {
    if (depth >= MAX_LINK_DEPTH)
      throw new BundleFormatError(path, `linked runs nest deeper than ${MAX_LINK_DEPTH} levels`);
    const child = await openBundleData(`${path}#${entry.member}`, options, members.get(entry.member)!, depth + 1);
    if (child.run.runId !== entry.runId || child.run.parentRunId !== run.runId) {
      throw new BundleContentError(
        path,
        entry.member,
        `it holds run ${child.run.runId} (parent ${child.run.parentRunId ?? "none"}), the manifest links run ${entry.runId} to ${run.runId}`,
      );
    }
    // One export signs a run and its linked runs with one key.
    if (child.signer?.fingerprint !== signer?.fingerprint) {
      throw new BundleSignatureError(
        path,
        entry.member,
        `it is ${child.signer ? `signed by ${child.signer.fingerprint}` : "unsigned"}, its parent ${signer ? `by ${signer.fingerprint}` : "is unsigned"}`,
      );
    }
    linked.push(child);
  }
  return {
    linked,
    path,
    manifest,
    signer,
    run,
    events,
    summary: totals.summary,
    *eventsOneByOne(skip: SkipPayloads = false) {
      if (content) {
        // Checked when the bundle was opened: every line is an event.
        for (const event of eventLines(content, skip)) if ("kind" in event) yield event;
        return;
      }
      for (const event of events)
        yield event.payload === undefined || !skipsPayload(skip, event) ? event : withoutPayload(event);
    },
    *lines() {
      if (content) {
        for (const [start, end] of eventLineRanges(content)) yield content.toString("utf8", start, end);
        return;
      }
      for (const event of events) yield JSON.stringify(event);
    },
    artifacts,
    member: (name) => members.get(name),
    // Each read stands alone: the bundle-wide total was checked when the bundle was opened. A
    // redacted spill copy lives under its own content's id; the events name the original.
    artifact: (id) => readArtifact(manifest.spills?.copies?.[id] ?? id, new MemberInflater(path, limits)),
  };
}

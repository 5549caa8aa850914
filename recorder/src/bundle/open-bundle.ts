import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { posix } from "node:path";
import tar from "tar-stream";
import type { RecordedEvent, RunManifest } from "../format/event.js";
import { isRecord } from "../format/request-rebuilder.js";
import { parseLines } from "../store/read-run.js";
import { zstdDecompress } from "../zstd/index.js";
import { BundleChecksumError, BundleError, BundleFormatError, BundleTruncatedError, BundleUnsafePathError, BundleVersionError } from "./errors.js";
import { BUNDLE_FORMAT, MEMBER, SUPPORTED_BUNDLE_VERSIONS, type BundleManifest } from "./manifest.js";

/** A bundle read back and verified. */
export interface OpenedBundle {
  path: string;
  manifest: BundleManifest;
  run: RunManifest;
  /** The run's events in `seq` order (as recorded: use `RequestRebuilder` for whole requests). */
  events: RecordedEvent[];
  /** Ids of the artifacts inside. */
  artifacts: string[];
  /** An artifact's uncompressed bytes (verified against its id). */
  artifact(sha256: string): Promise<Buffer>;
  /** Raw bytes of any member by its path. */
  member(path: string): Buffer | undefined;
}

const MAX_MEMBERS = 100_000;

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Refuses absolute paths, `..` segments, backslashes and anything that normalizes elsewhere. */
function checkMemberPath(bundle: string, name: string): void {
  if (name.length === 0 || name.includes("\0")) throw new BundleUnsafePathError(bundle, name, "empty or NUL in the name");
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || name.includes("\\")) throw new BundleUnsafePathError(bundle, name, "absolute or Windows-style path");
  if (name.split("/").includes("..")) throw new BundleUnsafePathError(bundle, name, "a '..' segment escapes the bundle folder");
  if (posix.normalize(name) !== name) throw new BundleUnsafePathError(bundle, name, "not a normalized relative path");
}

async function readMembers(path: string): Promise<Array<[string, Buffer]>> {
  const members: Array<[string, Buffer]> = [];
  const source = createReadStream(path);
  const extract = tar.extract();
  source.on("error", (error) => extract.destroy(error));
  source.pipe(extract);
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      checkMemberPath(path, name);
      if (type !== "file") throw new BundleUnsafePathError(path, name, `a ${type ?? "special"} entry, not a regular file`);
      if (members.length >= MAX_MEMBERS) throw new BundleFormatError(path, `more than ${MAX_MEMBERS} members`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      members.push([name, Buffer.concat(chunks)]);
    }
  } catch (error) {
    source.destroy();
    if (error instanceof BundleError) throw error;
    const message = (error as Error).message ?? String(error);
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BundleFormatError(path, "file not found", { cause: error });
    if (/unexpected end|premature|truncat/i.test(message)) throw new BundleTruncatedError(path, message, { cause: error });
    throw new BundleFormatError(path, `not a readable tar archive (${message})`, { cause: error });
  }
  return members;
}

function parseManifest(path: string, bytes: Buffer): BundleManifest {
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new BundleChecksumError(path, MEMBER.manifest, "not valid JSON");
  }
  if (!isRecord(manifest) || manifest.format !== BUNDLE_FORMAT) throw new BundleFormatError(path, `manifest.json does not name the format "${BUNDLE_FORMAT}"`);
  if (!SUPPORTED_BUNDLE_VERSIONS.includes(manifest.version as number)) throw new BundleVersionError(path, manifest.version, SUPPORTED_BUNDLE_VERSIONS);
  if (!Array.isArray(manifest.members)) throw new BundleFormatError(path, "manifest.json has no member list");
  return manifest as unknown as BundleManifest;
}

/**
 * Reads an incident bundle and verifies all of it: `manifest.json` first, a known format
 * version, safe member paths, every member's size and sha256 against the manifest and
 * `SHA256SUMS`, nothing missing or extra, and events that decode. Any failure is a typed
 * `BundleError` naming what failed.
 */
export async function openBundle(path: string): Promise<OpenedBundle> {
  const members = await readMembers(path);
  if (members.length === 0) throw new BundleTruncatedError(path, "the archive holds no members");
  if (members[0][0] !== MEMBER.manifest) throw new BundleFormatError(path, `the first member is "${members[0][0]}", expected ${MEMBER.manifest}`);
  const byPath = new Map<string, Buffer>();
  for (const [name, data] of members) {
    if (byPath.has(name)) throw new BundleFormatError(path, `member "${name}" appears twice`);
    byPath.set(name, data);
  }
  const manifest = parseManifest(path, byPath.get(MEMBER.manifest)!);
  const sumsText = byPath.get(MEMBER.sums);
  if (!sumsText) throw new BundleTruncatedError(path, `${MEMBER.sums} is missing (the bundle was cut short)`);
  const sums = new Map<string, string>();
  for (const line of sumsText.toString("utf8").split("\n").filter(Boolean)) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!match) throw new BundleChecksumError(path, MEMBER.sums, `unreadable line ${JSON.stringify(line.slice(0, 80))}`);
    sums.set(match[2], match[1]);
  }
  if (sums.get(MEMBER.manifest) !== sha256(byPath.get(MEMBER.manifest)!)) throw new BundleChecksumError(path, MEMBER.manifest, `sha256 differs from ${MEMBER.sums}`);
  const listed = new Set<string>([MEMBER.manifest, MEMBER.sums]);
  for (const member of manifest.members) {
    checkMemberPath(path, member.path);
    listed.add(member.path);
    const data = byPath.get(member.path);
    if (!data) throw new BundleTruncatedError(path, `member "${member.path}" listed in the manifest is missing`);
    if (data.byteLength !== member.bytes) throw new BundleChecksumError(path, member.path, `${data.byteLength} bytes, the manifest says ${member.bytes}`);
    const actual = sha256(data);
    if (actual !== member.sha256) throw new BundleChecksumError(path, member.path, "sha256 differs from the manifest");
    if (sums.get(member.path) !== actual) throw new BundleChecksumError(path, member.path, `sha256 differs from ${MEMBER.sums}`);
  }
  for (const name of byPath.keys()) if (!listed.has(name)) throw new BundleFormatError(path, `member "${name}" is not listed in the manifest`);
  const runBytes = byPath.get(MEMBER.run);
  const eventsFrame = byPath.get(MEMBER.events);
  if (!runBytes || !eventsFrame) throw new BundleFormatError(path, `${MEMBER.run} and ${MEMBER.events} are required members`);
  const eventsText = await zstdDecompress(eventsFrame).catch((error: unknown) => {
    throw new BundleChecksumError(path, MEMBER.events, `does not decompress (${(error as Error).message})`);
  });
  const { events, badLines } = parseLines(eventsText.toString("utf8"));
  if (badLines) throw new BundleChecksumError(path, MEMBER.events, `${badLines} line(s) are not JSON`);
  const artifactIds = [...byPath.keys()].filter((name) => name.startsWith("artifacts/")).map((name) => name.slice("artifacts/".length, -".zst".length));
  return {
    path,
    manifest,
    run: JSON.parse(runBytes.toString("utf8")) as RunManifest,
    events,
    artifacts: artifactIds,
    member: (name) => byPath.get(name),
    async artifact(id) {
      // A redacted spill copy lives under its own content's id; the events name the original.
      const stored = manifest.spills?.copies?.[id] ?? id;
      const frame = byPath.get(MEMBER.artifact(stored));
      if (!frame) throw new BundleFormatError(path, `artifact ${JSON.stringify(id)} is not in this bundle`);
      const data = await zstdDecompress(frame);
      if (sha256(data) !== stored) throw new BundleChecksumError(path, MEMBER.artifact(stored), "content does not match its sha256");
      return data;
    },
  };
}

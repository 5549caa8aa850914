import { createHash } from "node:crypto";
import { isArtifactId } from "@harnessx/artifacts";
import { BundleChecksumError, BundleFormatError, BundleTruncatedError } from "./errors.js";
import { MEMBER, type BundleManifest } from "./manifest.js";
import { checkMemberPath } from "./tar-members.js";

const ARTIFACT_MEMBER = /^artifacts\/([0-9a-f]{64})\.zst$/;
const LINKED_MEMBER = /^linked\/[^/]+\.tar$/;
const FIXED_MEMBERS = new Set<string>([MEMBER.manifest, MEMBER.run, MEMBER.events, MEMBER.sums]);

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

function readSums(path: string, members: ReadonlyMap<string, Buffer>): Map<string, string> {
  const text = members.get(MEMBER.sums);
  if (!text) throw new BundleTruncatedError(path, `${MEMBER.sums} is missing (the bundle was cut short)`);
  const sums = new Map<string, string>();
  for (const line of text.toString("utf8").split("\n").filter(Boolean)) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!match)
      throw new BundleChecksumError(path, MEMBER.sums, `unreadable line ${JSON.stringify(line.slice(0, 80))}`);
    sums.set(match[2], match[1]);
  }
  return sums;
}

/**
 * Checks the manifest against SHA256SUMS, then every member the manifest lists: present, its
 * size and sha256 as the manifest says, and as SHA256SUMS says. Nothing may be missing, extra,
 * or outside the format (an artifact is named by its sha256, a linked run's bundle is one the
 * manifest's `linkedRuns` names). Returns the artifact ids inside.
 */
export function verifyChecksums(
  path: string,
  manifest: BundleManifest,
  members: ReadonlyMap<string, Buffer>,
): string[] {
  const linked = new Set((manifest.linkedRuns ?? []).map((l) => l.member));
  const sums = readSums(path, members);
  if (sums.get(MEMBER.manifest) !== sha256(members.get(MEMBER.manifest)!))
    throw new BundleChecksumError(path, MEMBER.manifest, `sha256 differs from ${MEMBER.sums}`);
  const listed = new Set<string>([MEMBER.manifest, MEMBER.sums]);
  for (const member of manifest.members) {
    checkMemberPath(path, member.path);
    if (listed.has(member.path))
      throw new BundleFormatError(path, `member "${member.path}" is listed twice in the manifest`);
    listed.add(member.path);
    const data = members.get(member.path);
    if (!data) throw new BundleTruncatedError(path, `member "${member.path}" listed in the manifest is missing`);
    if (data.byteLength !== member.bytes)
      throw new BundleChecksumError(path, member.path, `${data.byteLength} bytes, the manifest says ${member.bytes}`);
    const actual = sha256(data);
    if (actual !== member.sha256) throw new BundleChecksumError(path, member.path, "sha256 differs from the manifest");
    if (sums.get(member.path) !== actual)
      throw new BundleChecksumError(path, member.path, `sha256 differs from ${MEMBER.sums}`);
  }
  const artifacts: string[] = [];
  for (const name of members.keys()) {
    if (!listed.has(name)) throw new BundleFormatError(path, `member "${name}" is not listed in the manifest`);
    if (FIXED_MEMBERS.has(name)) continue;
    if (linked.has(name) && LINKED_MEMBER.test(name)) continue;
    const id = ARTIFACT_MEMBER.exec(name)?.[1];
    if (!isArtifactId(id))
      throw new BundleFormatError(
        path,
        `member "${name}" is not part of the bundle format (${[...FIXED_MEMBERS].join(", ")}, artifacts/<sha256>.zst, linked/<run>.tar named in linkedRuns)`,
      );
    artifacts.push(id);
  }
  for (const member of linked)
    if (!LINKED_MEMBER.test(member) || !members.has(member))
      throw new BundleFormatError(
        path,
        `linked run member "${member}" is ${members.has(member) ? "not a linked/<run>.tar path" : "missing"}`,
      );
  for (const required of [MEMBER.run, MEMBER.events]) {
    if (!members.has(required))
      throw new BundleFormatError(path, `${MEMBER.run} and ${MEMBER.events} are required members`);
  }
  return artifacts;
}

// Taking incident bundles apart and putting them back together, for tests of hostile bundles:
// `reseal` recomputes the manifest's member list and SHA256SUMS the way an attacker would (one
// without the signer's key drops the signature), so a test reaches the checks behind the
// checksums; `reseal` with a key of the attacker's signs the forgery as they could.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { zstdDecompress } from "@harnessx/artifacts";
import tar from "tar-stream";
import type { BundleManifest } from "../bundle/manifest.js";
import { signManifest } from "../bundle/signature.js";
import type { SigningKey } from "../signing/signing-key.js";

export interface TarMember {
  name: string;
  data: Buffer;
  /** Default "file". */
  type?: "file" | "symlink";
}

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/** The members of a tar file (or tar bytes), in order. */
export async function membersOf(source: string | Buffer): Promise<TarMember[]> {
  const extract = tar.extract();
  const out: TarMember[] = [];
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: unknown) => void chunks.push(c as Buffer));
    stream.on("end", () => {
      out.push({ name: header.name, data: Buffer.concat(chunks) });
      next();
    });
  });
  const done = new Promise<void>((resolve, reject) => extract.on("finish", () => resolve()).on("error", reject));
  extract.end(typeof source === "string" ? readFileSync(source) : source);
  await done;
  return out;
}

/** Every member's text, decompressed when zstd. */
export async function bundleText(path: string): Promise<Map<string, string>> {
  const members = new Map<string, string>();
  for (const m of await membersOf(path))
    members.set(m.name, (m.name.endsWith(".zst") ? await zstdDecompress(m.data) : m.data).toString("utf8"));
  return members;
}

/** Tar bytes of these members, in this order (symlinks point at /etc/passwd). */
export async function tarOf(members: readonly TarMember[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => void chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  for (const m of members) {
    if (m.type === "symlink") pack.entry({ name: m.name, size: 0, type: "symlink", linkname: "/etc/passwd" });
    else pack.entry({ name: m.name, size: m.data.length, type: "file" }, m.data);
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

export async function writeTar(path: string, members: readonly TarMember[]): Promise<void> {
  writeFileSync(path, await tarOf(members));
}

/** Replaces (or adds, before SHA256SUMS) the member `name`. */
export function withMember(members: readonly TarMember[], name: string, data: Buffer): TarMember[] {
  const out = members.map((m) => (m.name === name ? { ...m, data } : m));
  if (!out.some((m) => m.name === name)) out.splice(Math.max(0, out.length - 1), 0, { name, data });
  return out;
}

export const manifestOf = (members: readonly TarMember[]): BundleManifest =>
  JSON.parse(members.find((m) => m.name === "manifest.json")!.data.toString()) as BundleManifest;

/**
 * Makes the checksums agree with the members again: each member the manifest lists gets its
 * current size and sha256 (and `contentBytes` is kept unless `edit` changes it), `edit` may change
 * the manifest, then SHA256SUMS is rewritten over the manifest and the listed members. The
 * signature is dropped, or made anew with `key` (an attacker's own).
 */
export function reseal(
  members: readonly TarMember[],
  edit: (manifest: BundleManifest) => void = () => undefined,
  key?: Pick<SigningKey, "publicKey" | "sign">,
): TarMember[] {
  let manifest = manifestOf(members);
  delete manifest.signature;
  const byName = new Map(members.map((m) => [m.name, m.data]));
  for (const entry of manifest.members) {
    const data = byName.get(entry.path);
    if (data) Object.assign(entry, { bytes: data.byteLength, sha256: sha256(data) });
  }
  const listed = manifest.members.map((m) => ({ ...m }));
  edit(manifest);
  if (key) manifest = signManifest(manifest, key);
  const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  // An edit may break the member list itself: the sums then cover the list as it was.
  const entries = Array.isArray(manifest.members) ? manifest.members : listed;
  const sumLines = [
    `${sha256(manifestBytes)}  manifest.json`,
    ...entries.map((m) => `${String(m?.sha256)}  ${String(m?.path)}`),
  ];
  const sums = `${sumLines.join("\n")}\n`;
  return withMember(withMember(members, "manifest.json", manifestBytes), "SHA256SUMS", Buffer.from(sums));
}

/**
 * One ustar header block for `name` claiming `size` bytes, of tar type `type` ("0" a file):
 * the data is the caller's to append, or not (a header that lies about what follows).
 */
export function ustarHeader(name: string, size: number, type = "0"): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, "utf8");
  block.write("0000644\0", 100);
  block.write("0000000\0", 108);
  block.write("0000000\0", 116);
  block.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  block.write("00000000000\0", 136);
  block.write(" ".repeat(8), 148);
  block.write(type, 156);
  block.write("ustar\0" + "00", 257);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return block;
}

// Ways to damage or forge an incident bundle, as fast-check arbitraries, for the bundle fuzzer.
// `hostile` mutations change what the bundle says (a reader must refuse them); `any` adds damage
// that may leave the content intact (a flipped padding byte, garbage after the archive).
import { createHash } from "node:crypto";
import fc from "fast-check";
import { zstdCompress, zstdDecompressWithin } from "@harnessx/artifacts";
import { reseal, tarOf, withMember, type TarMember } from "./bundle-surgery.js";

/** A bundle taken apart: its members, its tar bytes, and where each member's data lies in them. */
export interface BundleSample {
  members: TarMember[];
  tar: Buffer;
  /** [start, end) of each member's data in `tar`, in member order. */
  data: Array<[number, number]>;
  /** A zstd stream that inflates past the readers' ceiling. */
  bomb: Buffer;
}

/** One change: to the members (before they are packed) or to the packed bytes. */
export interface Mutation {
  label: string;
  members?(members: TarMember[], sample: BundleSample): Promise<TarMember[]> | TarMember[];
  bytes?(tar: Buffer, sample: BundleSample): Buffer;
}

/** Applies mutations in order: every change to members, then the bundle is packed, then every change to its bytes. */
export async function mutate(sample: BundleSample, mutations: readonly Mutation[]): Promise<Buffer> {
  let members = sample.members;
  for (const m of mutations) {
    // A forgery that needs what an earlier change removed (the manifest, the events) is skipped.
    const edit = m.members;
    if (edit) members = await (async () => edit(members, sample))().catch(() => members);
  }
  let tar = members === sample.members ? sample.tar : await tarOf(members);
  for (const m of mutations) if (m.bytes) tar = m.bytes(tar, sample);
  return tar;
}

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");
const EVENTS = "events.ndjson.zst";

/** Where each member's data lies in tar bytes written by tar-stream (ustar headers, 512-byte blocks). */
export function dataRegions(members: readonly TarMember[]): Array<[number, number]> {
  let at = 0;
  return members.map((m) => {
    const start = at + 512;
    at = start + Math.ceil(m.data.length / 512) * 512;
    return [start, start + m.data.length];
  });
}

const UNSAFE_NAMES = [
  "../escape",
  "/etc/passwd",
  "artifacts/../../x",
  "a\\b",
  "C:evil",
  "./manifest.json",
  "a//b",
  "artifacts/x.zst",
  "notes.txt",
];
const memberName = fc.oneof(
  fc.constantFrom(...UNSAFE_NAMES),
  fc.stringMatching(/^x-[a-z0-9/._-]{1,40}$/),
  fc.stringMatching(/^[0-9a-f]{64}$/).map((h) => `artifacts/${h}.zst`),
);
const lie = fc.oneof(fc.integer({ min: 0, max: 1 << 30 }), fc.constantFrom(2 ** 53, -1, 1.5, 1e300, "12", null));
const fromMembers = (
  label: string,
  members: (m: TarMember[], sample: BundleSample) => Promise<TarMember[]> | TarMember[],
): Mutation => ({ label, members });
const fromBytes = (label: string, bytes: (tar: Buffer, sample: BundleSample) => Buffer): Mutation => ({ label, bytes });
// Within a limit: after a bomb replaced the events, a later edit of them is skipped, not inflated.
const textOfEvents = async (members: TarMember[]): Promise<string> =>
  (await zstdDecompressWithin(members.find((m) => m.name === EVENTS)!.data, 16 * 1024 * 1024)).toString();
async function withEvents(members: TarMember[], ndjson: Buffer, frame?: Buffer): Promise<TarMember[]> {
  const data = frame ?? (await zstdCompress(ndjson));
  return reseal(
    withMember(members, EVENTS, data),
    (m) => (m.members.find((e) => e.path === EVENTS)!.contentBytes = ndjson.length),
  );
}

/** Mutations that change what the bundle says: each must be refused. `count` is the number of members. */
export function hostileMutation(count: number): fc.Arbitrary<Mutation> {
  const index = fc.nat({ max: count - 1 });
  const inner = fc.nat({ max: count - 2 }).map((i) => i + 1); // not the manifest
  const content = fc.nat({ max: count - 3 }).map((i) => i + 1); // neither the manifest nor SHA256SUMS (which reseal writes anew)
  return fc.oneof(
    fc
      .nat()
      .map((n) =>
        fromBytes(`cut before the end of the last member (${n})`, (tar, s) =>
          tar.subarray(0, n % s.data[s.data.length - 1][1]),
        ),
      ),
    fc.tuple(index, fc.nat(), fc.nat({ max: 7 })).map(([i, at, bit]) =>
      fromBytes(`flip bit ${bit} in the data of member ${i}`, (tar, s) => {
        const [start, end] = s.data[i];
        const out = Buffer.from(tar);
        out[start + (at % (end - start))] ^= 1 << bit;
        return out;
      }),
    ),
    fc
      .tuple(index, memberName)
      .map(([i, name]) =>
        fromMembers(`rename member ${i} to ${name}`, (m) => m.map((x, j) => (j === i ? { ...x, name } : x))),
      ),
    fc.tuple(inner, memberName).map(([i, name]) =>
      fromMembers(`rename member ${i} to ${name}, manifest resealed`, (m) =>
        reseal(
          m.map((x, j) => (j === i ? { ...x, name } : x)),
          (man) => {
            for (const e of man.members) if (e.path === m[i].name) e.path = name;
          },
        ),
      ),
    ),
    fc
      .tuple(index, fc.nat({ max: count }))
      .map(([i, at]) =>
        fromMembers(`duplicate member ${i} at ${at}`, (m) => [...m.slice(0, at), m[i], ...m.slice(at)]),
      ),
    inner.map((at) => fromMembers(`manifest moved to ${at}`, (m) => [...m.slice(1, at + 1), m[0], ...m.slice(at + 1)])),
    inner.map((i) => fromMembers(`member ${i} removed`, (m) => m.filter((_, j) => j !== i))),
    content.map((i) =>
      fromMembers(`member ${i} removed, manifest resealed`, (m) =>
        reseal(
          m.filter((_, j) => j !== i),
          (man) => (man.members = man.members.filter((e) => e.path !== m[i].name)),
        ),
      ),
    ),
    fc.tuple(fc.nat(), lie).map(([k, value]) =>
      fromMembers(`size lie ${JSON.stringify(value)}`, (m) =>
        reseal(m, (man) => {
          const entry = man.members[k % man.members.length];
          (entry as { bytes: unknown }).bytes = value === entry.bytes ? entry.bytes + 1 : value;
        }),
      ),
    ),
    fc.tuple(fc.nat(), lie).map(([k, value]) =>
      fromMembers(`contentBytes lie ${JSON.stringify(value)}`, (m) =>
        reseal(m, (man) => {
          const zstdMembers = man.members.filter((e) => e.contentBytes !== undefined);
          const entry = zstdMembers[k % zstdMembers.length];
          (entry as { contentBytes: unknown }).contentBytes =
            value === entry.contentBytes ? entry.contentBytes! + 1 : value;
        }),
      ),
    ),
    fc
      .constantFrom(
        ...[
          "format",
          "version",
          "createdAt",
          "run",
          "run.runId",
          "run.status",
          "run.summary.events",
          "trigger.reason",
          "window",
          "countsByKind",
          "dropped.events",
          "missingArtifacts",
          "members",
          "members.0.path",
          "members.0.sha256",
        ],
      )
      .chain((field) =>
        fc.constantFrom(true, undefined).map((value) =>
          fromMembers(`manifest ${field} set to ${String(value)}`, (m) =>
            reseal(m, (man) => {
              const keys = field.split(".");
              const parent = keys
                .slice(0, -1)
                .reduce<Record<string, unknown>>(
                  (o, k) => o[k] as Record<string, unknown>,
                  man as unknown as Record<string, unknown>,
                );
              if (value === undefined) delete parent[keys[keys.length - 1]];
              else parent[keys[keys.length - 1]] = value;
            }),
          ),
        ),
      ),
    fc
      .oneof(
        fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
        fc.constantFrom('{"runId": "r"', "[]", "null", '{"runId": 1}').map((t) => Buffer.from(t)),
      )
      .map((data) => fromMembers("run.json replaced", (m) => reseal(withMember(m, "run.json", data)))),
    fc.tuple(fc.jsonValue(), fc.nat()).map(([value, at]) =>
      fromMembers(`event line ${JSON.stringify(value)?.slice(0, 40)} inserted`, async (m) => {
        const lines = (await textOfEvents(m)).trimEnd().split("\n");
        lines.splice(at % (lines.length + 1), 0, JSON.stringify(value) ?? "undefined");
        return withEvents(m, Buffer.from(`${lines.join("\n")}\n`));
      }),
    ),
    fc.nat().map((n) =>
      fromMembers(`events cut at ${n}`, async (m) => {
        const text = Buffer.from(await textOfEvents(m));
        return withEvents(m, text.subarray(0, n % (text.length - 1))); // at least the last line torn
      }),
    ),
    fc.boolean().map((artifact) =>
      fromMembers(`${artifact ? "an artifact" : "the events"} compressed twice`, async (m) => {
        const target = artifact ? m.find((x) => x.name.startsWith("artifacts/"))! : m.find((x) => x.name === EVENTS)!;
        const twice = await zstdCompress(target.data);
        return reseal(
          withMember(m, target.name, twice),
          (man) => (man.members.find((e) => e.path === target.name)!.contentBytes = target.data.length),
        );
      }),
    ),
    fc.tuple(fc.boolean(), fc.constantFrom("removed", "kept", "honest")).map(([artifact, declared]) =>
      fromMembers(`a bomb as ${artifact ? "an artifact" : "the events"}, its size ${declared}`, (m, s) => {
        const target = artifact ? m.find((x) => x.name.startsWith("artifacts/"))!.name : EVENTS;
        return reseal(withMember(m, target, s.bomb), (man) => {
          const entry = man.members.find((e) => e.path === target)!;
          if (declared === "removed") delete entry.contentBytes;
          if (declared === "honest") entry.contentBytes = 300 * 1024 * 1024;
        });
      }),
    ),
    fc
      .tuple(fc.constantFrom(...UNSAFE_NAMES.slice(0, 5)), fc.boolean())
      .map(([name, link]) =>
        fromMembers(`extra ${link ? "symlink" : "file"} ${name}`, (m) => [
          ...m,
          { name, data: Buffer.from("x"), ...(link ? { type: "symlink" as const } : {}) },
        ]),
      ),
    fc.constant(null).map(() =>
      fromMembers("extra artifact, listed", async (m) => {
        const data = Buffer.from("unreferenced");
        const frame = await zstdCompress(data);
        const name = `artifacts/${sha256(data)}.zst`;
        return reseal(withMember(m, name, frame), (man) =>
          man.members.push({ path: name, bytes: frame.length, sha256: sha256(frame), contentBytes: data.length }),
        );
      }),
    ),
  );
}

/** Hostile mutations and damage that may leave the content as it was. */
export function anyMutation(count: number): fc.Arbitrary<Mutation> {
  return fc.oneof(
    hostileMutation(count),
    fc.tuple(fc.nat(), fc.nat({ max: 7 })).map(([at, bit]) =>
      fromBytes(`flip bit ${bit} at ${at}`, (tar) => {
        const out = Buffer.from(tar);
        out[at % out.length] ^= 1 << bit;
        return out;
      }),
    ),
    fc.nat().map((n) => fromBytes(`cut at ${n}`, (tar) => tar.subarray(0, n % (tar.length + 1)))),
    fc
      .uint8Array({ minLength: 1, maxLength: 2048 })
      .map((g) => fromBytes(`${g.length} garbage bytes appended`, (tar) => Buffer.concat([tar, g]))),
    fc
      .nat()
      .map((seed) =>
        fromMembers(`members after the manifest shuffled (${seed})`, (m) => [
          m[0],
          ...m
            .slice(1)
            .sort((a, b) => (sha256(Buffer.from(a.name + seed)) < sha256(Buffer.from(b.name + seed)) ? -1 : 1)),
        ]),
      ),
  );
}

/** The sample the mutations work on. */
export function sampleOf(members: TarMember[], tar: Buffer, bomb: Buffer): BundleSample {
  return { members, tar, data: dataRegions(members), bomb };
}

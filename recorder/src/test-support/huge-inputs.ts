// Small files that ask a reader for a lot of memory, for tests of the read limits: a bundle
// whose one event line inflates to hundreds of megabytes (its sizes declared honestly, so only a
// line limit stops it), a bundle with a huge manifest, a store run with such a sealed segment, a
// dataset's runs file with a huge string or millions of rows.
// Lines are built as bytes, never as one huge JS string, so the test itself stays small.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zstdCompress, zstdDecompressWithin } from "@harnessx/artifacts";
import { manifestOf, reseal, withMember, type TarMember } from "./bundle-surgery.js";
import { eventLine, runManifest } from "./hand-made-run.js";

const EVENTS = "events.ndjson.zst";
const ATTRS = Buffer.from('"attrs":{');
const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/** The event line with an attribute `note` of `bytes` letters put first in its attributes. */
export function padded(line: Buffer, bytes: number): Buffer {
  const at = line.indexOf(ATTRS) + ATTRS.length;
  return Buffer.concat([
    line.subarray(0, at),
    Buffer.from('"note":"'),
    Buffer.alloc(bytes, 0x61),
    Buffer.from('",'),
    line.subarray(at),
  ]);
}

/**
 * The bundle's members with its first event line grown by `bytes` (an attribute of that many
 * letters): every count and size in the manifest tells the truth, so only a limit on one line
 * refuses it. zstd takes 250 MB of one letter down to a few kilobytes.
 */
export async function withHugeEventLine(members: readonly TarMember[], bytes: number): Promise<TarMember[]> {
  const events = members.find((m) => m.name === EVENTS)!;
  const text = await zstdDecompressWithin(events.data, 64 * 1024 * 1024);
  const newline = text.indexOf(0x0a);
  const ndjson = Buffer.concat([padded(text.subarray(0, newline), bytes), text.subarray(newline)]);
  const frame = await zstdCompress(ndjson);
  return reseal(
    withMember(members, EVENTS, frame),
    (m) => (m.members.find((e) => e.path === EVENTS)!.contentBytes = ndjson.length),
  );
}

/**
 * The bundle's members with every event line grown to `bytes` with an attribute that is an array
 * of empty objects (`[{},{},...]`, a third of the bytes each an object): counts and sizes true,
 * a few kilobytes of zstd, and JSON.parse would make each line 30 times its size.
 */
export async function withDenseEventLines(members: readonly TarMember[], bytes: number): Promise<TarMember[]> {
  const events = members.find((m) => m.name === EVENTS)!;
  const text = await zstdDecompressWithin(events.data, 64 * 1024 * 1024);
  const lines: Buffer[] = [];
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf(0x0a, start);
    const line = text.subarray(start, newline);
    const at = line.indexOf(ATTRS) + ATTRS.length;
    const count = Math.floor((bytes - line.length - '"note":[],'.length) / 3);
    lines.push(
      Buffer.concat([
        line.subarray(0, at),
        Buffer.from('"note":['),
        Buffer.alloc(count * 3 - 1, "{},"),
        Buffer.from("],"),
        line.subarray(at),
        Buffer.from("\n"),
      ]),
    );
    start = newline + 1;
  }
  const ndjson = Buffer.concat(lines);
  const frame = await zstdCompress(ndjson);
  return reseal(
    withMember(members, EVENTS, frame),
    (m) => (m.members.find((e) => e.path === EVENTS)!.contentBytes = ndjson.length),
  );
}

/** The bundle's members with a manifest grown to about `bytes` (a trigger reason that long), checksums recomputed. */
export function withHugeManifest(members: readonly TarMember[], bytes: number): TarMember[] {
  const manifest = manifestOf(members);
  return reseal(members, (m) => (m.trigger.reason = "x".repeat(Math.max(0, bytes - JSON.stringify(manifest).length))));
}

/**
 * A store run of one sealed segment whose second line carries `bytes` letters: the segment's
 * sidecar declares its true size and sha256, as a recorder would write them. Returns the run dir.
 */
export async function writeRunWithHugeLine(store: string, runId: string, bytes: number): Promise<string> {
  const runDir = join(store, "runs", runId);
  mkdirSync(join(runDir, "segments"), { recursive: true });
  const ndjson = Buffer.concat([
    Buffer.from(eventLine(runId, 1, "agent_start", { model: "m" })),
    padded(Buffer.from(eventLine(runId, 2, "custom", { name: "note" }).trimEnd()), bytes),
    Buffer.from("\n"),
  ]);
  const frame = await zstdCompress(ndjson);
  const sealed = join(runDir, "segments", "000001.ndjson.zst");
  writeFileSync(sealed, frame);
  writeFileSync(`${sealed}.sha256`, JSON.stringify({ sha256: sha256(frame), bytes: ndjson.length }));
  writeFileSync(join(runDir, "run.json"), JSON.stringify(runManifest(runId), null, 2));
  return runDir;
}

/**
 * Rewrites the one `runs` file of a dataset from `select`, SQL over `runs` (the file as the
 * exporter wrote it), with DuckDB: e.g. a 300 MB agent name (`SELECT * REPLACE (repeat('a',
 * 300000000) AS agent) FROM runs`, a file of some kilobytes) or ten million rows. Returns the file.
 */
export async function rewriteRunsFile(dataset: string, select: string): Promise<string> {
  const partition = readdirSync(join(dataset, "runs"))[0];
  const file = join(dataset, "runs", partition!, readdirSync(join(dataset, "runs", partition!))[0]!);
  const original = `${file}.original`;
  renameSync(file, original);
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(`CREATE VIEW runs AS SELECT * FROM read_parquet('${original}')`);
    await connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet, COMPRESSION zstd)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(original);
  }
  return file;
}

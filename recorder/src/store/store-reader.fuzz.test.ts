// Property tests of the store readers against torn writes: truncated segment files, partial
// lines, garbage appended, missing or torn sidecars, interrupted seals, a partial run.json.
// Reading returns an intact prefix of the run's events, or fails with a typed error
// (SegmentCorruptError, RunInvalidError, RunNotFoundError); never another exception.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import fc from "fast-check";
import { fuzzParameters } from "../../../test/support/fuzz.js";
import { zstdDecompress } from "@harnessx/artifacts";
import {
  FlightRecorderExtension,
  iterateRunEvents,
  openSegmentTables,
  readRun,
  RecordingStore,
  RunInvalidError,
  RunNotFoundError,
  SegmentCorruptError,
  type RecordedEvent,
} from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

const RUNS = 200;
type Files = Map<string, Buffer>;
interface Tear {
  label: string;
  apply(files: Files): void;
}

let dir: string;
let cleanup: () => void;
let runId: string;
let pristine: Files;
let onDisk: Files;
let original: RecordedEvent[];
/** The sealed frame of the last segment, for seals interrupted mid-write. */
let lastFrame: Buffer;
const tally = { tried: 0, prefix: 0, refused: 0, eventsCut: 0 };

const segments = (files: Files, suffix: string) =>
  [...files.keys()].filter((k) => k.includes("/segments/") && k.endsWith(suffix)).sort();

/** The files under `root`, keyed by their path under `prefix`. */
function readTree(root: string, prefix: string): Files {
  const files: Files = new Map();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      e.isDirectory()
        ? walk(join(d, e.name))
        : files.set(join(prefix, relative(root, join(d, e.name))), readFileSync(join(d, e.name)));
  };
  walk(root);
  return files;
}

/** Makes the tree under `root` hold `next`, writing only what differs from `previous` (what it holds now). */
function syncTree(root: string, previous: Files, next: Files): void {
  for (const path of previous.keys()) if (!next.has(path)) rmSync(join(root, path));
  for (const [path, data] of next) {
    if (previous.get(path) === data) continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), data);
  }
}

before(async () => {
  ({ dir, cleanup } = tempDir("hx-store-fuzz-"));
  const source = join(dir, "source");
  const recorder = new FlightRecorderExtension({ dir: source, segmentMaxBytes: 2048, flushIntervalMs: 5 });
  // Model calls that take a moment let the recorder drain (and seal) between them.
  const agent = scriptedAgent(
    echoScript(12).map((step) => ({ ...step, delayMs: 15 })),
    [recorder],
  );
  runId = (await agent.run("tear me")).runId;
  await agent.close();
  pristine = readTree(join(source, "runs"), "runs");
  // As a crash leaves it: the last segment never sealed, the run still "running".
  const last = segments(pristine, ".ndjson.zst").pop()!;
  lastFrame = pristine.get(last)!;
  pristine.set(last.slice(0, -".zst".length), await zstdDecompress(lastFrame));
  pristine.delete(last);
  pristine.delete(`${last}.sha256`);
  const manifest = `runs/${runId}/run.json`;
  pristine.set(
    manifest,
    Buffer.from(
      JSON.stringify({ ...JSON.parse(pristine.get(manifest)!.toString()), status: "running", endedAt: null }),
    ),
  );
  syncTree(join(dir, "store"), new Map(), pristine);
  onDisk = pristine;
  original = (await readRun(join(dir, "store", "runs", runId))).events;
  assert.ok(segments(pristine, ".zst").length >= 2, "several sealed segments");
});
after(() => cleanup());

const pick = <T>(items: readonly T[], n: number): T => items[n % items.length];
const cut = (data: Buffer, n: number): Buffer => data.subarray(0, n % Math.max(1, data.length));

const tear: fc.Arbitrary<Tear> = fc.oneof(
  fc.nat().map((n) => ({
    label: `active segment cut at ${n}`,
    apply: (f: Files) => {
      const k = pick(segments(f, ".ndjson"), 0);
      f.set(k, cut(f.get(k)!, n));
    },
  })),
  fc.nat().map((n) => ({
    label: `partial line appended (${n})`,
    apply: (f: Files) => {
      const k = pick(segments(f, ".ndjson"), 0);
      const line = Buffer.from(JSON.stringify(original[original.length - 1]));
      f.set(k, Buffer.concat([f.get(k)!, line.subarray(0, n % line.length)]));
    },
  })),
  fc.uint8Array({ minLength: 1, maxLength: 512 }).map((g) => ({
    label: `${g.length} garbage bytes appended to the active segment`,
    apply: (f: Files) => {
      const k = pick(segments(f, ".ndjson"), 0);
      f.set(k, Buffer.concat([f.get(k)!, g]));
    },
  })),
  fc.nat().map((n) => ({
    label: `sidecar ${n} missing`,
    apply: (f: Files) => {
      const k = segments(f, ".sha256");
      if (k.length) f.delete(pick(k, n));
    },
  })),
  fc.tuple(fc.nat(), fc.nat()).map(([n, at]) => ({
    label: `sidecar ${n} torn at ${at}`,
    apply: (f: Files) => {
      const k = segments(f, ".sha256");
      if (k.length) f.set(pick(k, n), cut(f.get(pick(k, n))!, at));
    },
  })),
  fc.tuple(fc.nat(), fc.nat()).map(([n, at]) => ({
    label: `sealed segment ${n} cut at ${at}`,
    apply: (f: Files) => {
      const k = pick(segments(f, ".ndjson.zst"), n);
      f.set(k, cut(f.get(k)!, at));
    },
  })),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([n, g]) => ({
    label: `garbage appended to sealed segment ${n}`,
    apply: (f: Files) => {
      const k = pick(segments(f, ".ndjson.zst"), n);
      f.set(k, Buffer.concat([f.get(k)!, g]));
    },
  })),
  fc.nat().map((at) => ({
    label: `seal of the active segment interrupted at ${at}`,
    apply: (f: Files) => f.set(`${pick(segments(f, ".ndjson"), 0)}.zst`, cut(lastFrame, at)),
  })),
  fc.nat().map((at) => ({
    label: `run.json torn at ${at}`,
    apply: (f: Files) => {
      const k = `runs/${runId}/run.json`;
      f.set(k, cut(f.get(k)!, at));
    },
  })),
);

/** Reads the torn store every way there is; returns the events, or the typed error that refused them. */
async function readAll(store: string, withDuckDb: boolean): Promise<RecordedEvent[] | Error> {
  const runDir = join(store, "runs", runId);
  const folders = await new RecordingStore(store).listRunFolders();
  assert.equal(folders.runs.length + folders.invalid.length, 1, "the run is listed, readable or not");
  try {
    const events = await new RecordingStore(store).readEvents(runId);
    assert.deepEqual((await readRun(runDir)).events, events);
    const iterated: RecordedEvent[] = [];
    for await (const event of iterateRunEvents(runDir)) iterated.push(event);
    assert.deepEqual(iterated, events);
    if (withDuckDb) {
      const tables = await openSegmentTables(store, [runDir]);
      try {
        await tables.connection.runAndReadAll("SELECT count(*) FROM events");
      } finally {
        tables.close();
      }
    }
    return events;
  } catch (error) {
    if (error instanceof SegmentCorruptError || error instanceof RunInvalidError || error instanceof RunNotFoundError)
      return error;
    throw error;
  }
}

describe("store readers on torn writes", () => {
  test("an intact prefix of the events, or a typed error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tear, { minLength: 1, maxLength: 4 }), fc.boolean(), async (tears, withDuckDb) => {
        const files: Files = new Map(pristine);
        for (const t of tears) t.apply(files);
        const store = join(dir, "store");
        syncTree(store, onDisk, files);
        onDisk = files;
        tally.tried++;
        const result = await readAll(store, withDuckDb);
        if (result instanceof Error) tally.refused++;
        else {
          assert.deepEqual(result, original.slice(0, result.length), tears.map((t) => t.label).join(" + "));
          tally.prefix++;
          tally.eventsCut += original.length - result.length;
        }
      }),
      fuzzParameters(RUNS, { includeErrorInReport: true }),
    );
  });

  test("tally", (t) => {
    t.diagnostic(
      `${tally.tried} torn stores read: ${tally.prefix} gave an intact prefix (${tally.eventsCut} events cut in all), ${tally.refused} refused with a typed error`,
    );
    assert.equal(tally.prefix + tally.refused, tally.tried);
    assert.ok(tally.tried >= fuzzParameters(RUNS).numRuns!);
  });
});

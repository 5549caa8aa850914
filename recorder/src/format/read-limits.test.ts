// The read limits at their edges: exactly the limit is read, one byte more is refused with the
// reader's typed error (and never decoded), in a store's segment, a bundle's events, run.json and
// manifest.json alike.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BundleContentError,
  BundleTooLargeError,
  EventLineTooLongError,
  FlightRecorderExtension,
  MAX_BUNDLE_MANIFEST_BYTES,
  MAX_EVENT_LINE_BYTES,
  MAX_RUN_MANIFEST_BYTES,
  openBundle,
  openRecording,
  openSegmentTables,
  parseEventLines,
  readRunManifest,
  RunInvalidError,
  SegmentCorruptError,
  sqlLimitErrorOf,
} from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { manifestOf, membersOf, reseal, writeTar, type TarMember } from "../test-support/bundle-surgery.js";
import { eventLine, runManifest, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { padded, withHugeEventLine, writeRunWithHugeLine } from "../test-support/huge-inputs.js";
import { tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
let good: TarMember[];
before(async () => {
  ({ dir, cleanup } = tempDir());
  const recorder = new FlightRecorderExtension({ dir });
  const agent = scriptedAgent(echoScript(1), [recorder]);
  const { runId } = await agent.run("limits");
  await agent.close();
  good = await membersOf((await recorder.exportIncident({ runId, reason: "limits", out: join(dir, "good.tar") })).path);
});
after(() => cleanup());

/** An event line of exactly `bytes` bytes (without its newline). */
function lineOf(bytes: number, seq = 1): Buffer {
  const base = Buffer.from(eventLine("run_edge", seq, "custom", { name: "n" }).trimEnd());
  return padded(base, bytes - base.length - '"note":"",'.length);
}

const read = async (source: string) => {
  await using recording = await openRecording(source);
  return recording.readEvents();
};

describe("an event line", () => {
  test("of exactly MAX_EVENT_LINE_BYTES is read; one byte more is refused unread, naming the line and the limit", () => {
    assert.equal(lineOf(MAX_EVENT_LINE_BYTES).length, MAX_EVENT_LINE_BYTES);
    const atLimit = parseEventLines(Buffer.concat([lineOf(200), Buffer.from("\n"), lineOf(MAX_EVENT_LINE_BYTES, 2)]));
    assert.deepEqual(
      atLimit.events.map((e) => e.seq),
      [1, 2],
    );
    assert.throws(
      () => parseEventLines(Buffer.concat([lineOf(200), Buffer.from("\n"), lineOf(MAX_EVENT_LINE_BYTES + 1, 2)])),
      (error: unknown) =>
        error instanceof EventLineTooLongError &&
        error.line === 2 &&
        error.bytes === MAX_EVENT_LINE_BYTES + 1 &&
        /longer than the 16,777,216 a reader takes/.test(error.message),
    );
  });

  test("over the limit in a store's sealed segment: the segment is refused (SegmentCorruptError); SQL refuses it past DuckDB's own reading of the limit", async () => {
    const runDir = await writeRunWithHugeLine(dir, "run_long", MAX_EVENT_LINE_BYTES);
    await assert.rejects(
      read(runDir),
      (error: unknown) =>
        error instanceof SegmentCorruptError &&
        /000001\.ndjson\.zst is corrupt: line 2 is .* bytes, longer than the 16,777,216/.test(error.message),
    );
    // DuckDB applies maximum_object_size per read buffer: it takes up to about twice the limit, and refuses more.
    await writeRunWithHugeLine(dir, "run_longer", 3 * MAX_EVENT_LINE_BYTES);
    const tables = await openSegmentTables(dir, [join(dir, "runs", "run_longer")], { spans: false });
    try {
      await assert.rejects(
        tables.connection.runAndReadAll("SELECT count(*) FROM events"),
        (error: unknown) => sqlLimitErrorOf(error)?.limit === "line",
      );
    } finally {
      tables.close();
    }
  });

  test("over the limit in a plain (unsealed) segment: refused as well", async () => {
    const runDir = writeHandMadeRun(dir, "run_plain_long", [
      Buffer.concat([
        Buffer.from(eventLine("run_plain_long", 1, "agent_start")),
        lineOf(MAX_EVENT_LINE_BYTES + 1, 2),
        Buffer.from("\n"),
      ]),
    ]);
    await assert.rejects(
      read(runDir),
      (error: unknown) => error instanceof SegmentCorruptError && /line 2 is/.test(error.message),
    );
  });

  test("over the limit in a bundle's events (sizes declared honestly): BundleContentError naming the member", async () => {
    const path = join(dir, "long-line.tar");
    await writeTar(path, await withHugeEventLine(good, MAX_EVENT_LINE_BYTES));
    await assert.rejects(
      openBundle(path),
      (error: unknown) =>
        error instanceof BundleContentError &&
        error.member === "events.ndjson.zst" &&
        /line 1 is .* longer than the 16,777,216/.test(error.message),
    );
  });
});

describe("run.json and manifest.json", () => {
  test("a run.json of exactly MAX_RUN_MANIFEST_BYTES is read; one byte more is RunInvalidError", async () => {
    const text = JSON.stringify(runManifest("run_json_edge"));
    const runDir = writeHandMadeRun(dir, "run_json_edge", []);
    writeFileSync(join(runDir, "run.json"), text + " ".repeat(MAX_RUN_MANIFEST_BYTES - text.length));
    assert.equal((await readRunManifest(runDir)).runId, "run_json_edge");
    writeFileSync(join(runDir, "run.json"), text + " ".repeat(MAX_RUN_MANIFEST_BYTES - text.length + 1));
    await assert.rejects(
      readRunManifest(runDir),
      (error: unknown) =>
        error instanceof RunInvalidError && /larger than the 16,777,216 bytes a reader takes/.test(error.message),
    );
  });

  test("a manifest.json of exactly MAX_BUNDLE_MANIFEST_BYTES opens; one byte more is refused from its tar header, unread", async () => {
    const sized = (bytes: number): TarMember[] =>
      reseal(good, (m) => {
        const rest = Buffer.byteLength(`${JSON.stringify({ ...m, trigger: { ...m.trigger, reason: "" } }, null, 2)}\n`);
        m.trigger.reason = "x".repeat(bytes - rest);
      });
    const atLimit = sized(MAX_BUNDLE_MANIFEST_BYTES);
    assert.equal(atLimit[0]!.data.length, MAX_BUNDLE_MANIFEST_BYTES);
    const path = join(dir, "manifest-edge.tar");
    await writeTar(path, atLimit);
    assert.equal((await openBundle(path)).manifest.trigger.reason.length, manifestOf(atLimit).trigger.reason.length);
    await writeTar(path, sized(MAX_BUNDLE_MANIFEST_BYTES + 1));
    await assert.rejects(
      openBundle(path),
      (error: unknown) =>
        error instanceof BundleTooLargeError &&
        error.member === "manifest.json" &&
        error.limit === MAX_BUNDLE_MANIFEST_BYTES &&
        /refused unread/.test(error.message),
    );
  });
});

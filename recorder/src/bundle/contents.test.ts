// The bundle's contents against each other: manifest.json's shape, every events line, and the
// manifest's claims (run, totals, artifacts) against what run.json and the events hold.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  BundleContentError,
  BundleFormatError,
  MAX_EVENT_LINE_BYTES,
  type BundleManifest,
  type RunManifest,
} from "../index.js";
import { checkConsistency, parseManifest, tallyEvents, type EventTotals } from "./contents.js";
import { eventLine } from "../test-support/hand-made-run.js";

const PATH = "hand-made.tar";
const X = "a".repeat(64);
const Y = "b".repeat(64);
const content = (member: string, message: RegExp) => (e: unknown) =>
  e instanceof BundleContentError &&
  e.code === "bundle_invalid_content" &&
  e.member === member &&
  message.test(e.message);

describe("parseManifest", () => {
  test("not JSON, and JSON that does not name the format", () => {
    assert.throws(
      () => parseManifest(PATH, Buffer.from("{ not json")),
      content("manifest.json", /member "manifest\.json" is not valid: not valid JSON \(.+\)$/),
    );
    assert.throws(
      () => parseManifest(PATH, Buffer.from('{"format":"tarball"}')),
      (e: unknown) =>
        e instanceof BundleFormatError &&
        /: manifest\.json does not name the format "harnessx\.incident"$/.test(e.message),
    );
  });
});

describe("tallyEvents", () => {
  const good = (seq: number) => eventLine("r", seq, "agent_start");
  test("the first bad line is named; how many more follow is said only when there are more", () => {
    assert.throws(
      () => tallyEvents(PATH, Buffer.from(`${good(1)}not json\n${good(3)}`)),
      content("events.ndjson.zst", /: line 2: not valid JSON \([^()]*\)$/),
    );
    assert.throws(
      () => tallyEvents(PATH, Buffer.from(`${good(1)}not json\n[]\n${good(4)}{}\n`)),
      content("events.ndjson.zst", /: line 2: .+ \(and 2 more bad line\(s\)\)$/),
    );
  });
  test("a line over the reader's limit is refused, naming it", () => {
    const long = Buffer.concat([Buffer.from(good(1)), Buffer.alloc(MAX_EVENT_LINE_BYTES + 1, 0x20), Buffer.from("\n")]);
    assert.throws(
      () => tallyEvents(PATH, long),
      content("events.ndjson.zst", /: line 2 is 16,777,217 bytes, longer than/),
    );
  });
});

describe("checkConsistency", () => {
  const run = { runId: "r", status: "completed" } as RunManifest;
  /** The totals of `lines`, and a manifest that agrees with them and with `run`. */
  function agreeing(lines: string[]): { totals: EventTotals; manifest: BundleManifest } {
    const totals = tallyEvents(PATH, Buffer.from(lines.join("")));
    const manifest = {
      run: { runId: "r", status: "completed", summary: structuredClone(totals.summary) },
      dropped: { events: totals.summary.dropped, gaps: [] },
      countsByKind: { ...totals.summary.byKind },
      missingArtifacts: [],
    } as unknown as BundleManifest;
    return { totals, manifest };
  }
  const spill = (id: string) => eventLine("r", 2, "spill", { sha256: id });

  test("a manifest without `spills` (older bundles) is read", () => {
    const { totals, manifest } = agreeing([eventLine("r", 1, "agent_start"), spill(X)]);
    assert.doesNotThrow(() => checkConsistency(PATH, manifest, run, totals, [X]));
  });
  test("a spill bundled as its redacted copy is found under the copy's id", () => {
    const { totals, manifest } = agreeing([spill(X)]);
    manifest.spills = { count: 1, redacted: true, copies: { [X]: Y } };
    assert.doesNotThrow(() => checkConsistency(PATH, manifest, run, totals, [Y]));
    assert.throws(
      () => checkConsistency(PATH, manifest, run, totals, [Y, X]),
      content(`artifacts/${X}.zst`, /no event references it$/),
    );
  });
  test("another run id than run.json's, the status the same", () => {
    const { totals, manifest } = agreeing([spill(X)]);
    manifest.run.runId = "other";
    assert.throws(
      () => checkConsistency(PATH, manifest, run, totals, [X]),
      content("manifest.json", /: it describes run other \(completed\), run\.json is run r \(completed\)$/),
    );
  });
  test("the run summary's dropped count alone contradicting the events", () => {
    const { totals, manifest } = agreeing([eventLine("r", 1, "recorder.dropped", { count: 3 })]);
    manifest.run.summary.dropped = 2;
    assert.throws(
      () => checkConsistency(PATH, manifest, run, totals, []),
      content("manifest.json", /it counts 1 events \(3 dropped\), events\.ndjson\.zst holds 1 \(3 dropped\)$/),
    );
  });
  test("an artifact inside that the manifest also lists as missing", () => {
    const { totals, manifest } = agreeing([spill(X)]);
    manifest.missingArtifacts = [X];
    assert.throws(
      () => checkConsistency(PATH, manifest, run, totals, [X]),
      content(`artifacts/${X}.zst`, /: the manifest lists it as missing$/),
    );
  });
});

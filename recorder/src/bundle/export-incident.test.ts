// exportIncident on runs written by hand: what the manifest says of the members, spills
// redacted (payloads copied as stored), missing artifacts, where the bundle goes, linked runs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore, zstdDecompress } from "@harnessx/artifacts";
import { exportIncident, MAX_EVENT_LINE_BYTES, openBundle, type RunManifest } from "../index.js";
import { indexChildRun } from "../store/linked-runs.js";
import { SegmentCorruptError } from "../store/read-run.js";
import { membersOf } from "../test-support/bundle-surgery.js";
import { eventLine, runManifest, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { tempDir } from "../../../test/support/system.js";

const KEY = "sk-proj-Zt8q3LmNv0pQ2rS4tU6wX8yZa1B3c5D7";
const sha256 = (data: Uint8Array | string): string => createHash("sha256").update(data).digest("hex");
const done = (runId: string, more: Partial<RunManifest> = {}) =>
  runManifest(runId, { status: "completed", endedAt: 1_700_000_000_100, ...more });
const withRef = (runId: string, seq: number, id: string) =>
  `${JSON.stringify({ ...JSON.parse(eventLine(runId, seq, "tool_call_end")), payloadRef: { sha256: id, bytes: 10, preview: "" } })}\n`;

async function inStore(check: (dir: string) => Promise<void>): Promise<void> {
  const { dir, cleanup } = tempDir();
  try {
    await check(dir);
  } finally {
    cleanup();
  }
}

describe("artifacts: spills redacted, payloads as stored, the missing listed", () => {
  test("the manifest and the export's summary say what went in", async () => {
    await inStore(async (dir) => {
      const store = new ArtifactStore(dir);
      const payload = (await store.put(`{"result":"${KEY}"}`)).sha256;
      const secret = (await store.put(`rows\nkey ${KEY}\n`)).sha256;
      const clean = (await store.put("rows without secrets\n")).sha256;
      const [gone, goneRef] = [sha256("never stored"), sha256("never stored either")];
      const run = "run_spills";
      const spill = (runId: string, seq: number, id: string) => eventLine(runId, seq, "spill", { sha256: id });
      // Referenced in the reverse of their ids' order: the members come in the ids' order.
      const refs = [
        [payload, withRef],
        [secret, spill],
        [clean, spill],
      ] as const;
      const lines = [...refs].sort(([a], [b]) => (a < b ? 1 : -1)).map(([id, line], i) => line(run, i + 2, id));
      writeHandMadeRun(
        dir,
        run,
        [[eventLine(run, 1, "agent_start"), ...lines, spill(run, 5, gone), withRef(run, 6, goneRef)].join("")],
        done(run),
      );
      const exported = await exportIncident({
        dir,
        runId: run,
        reason: "spills",
        out: join(dir, "b.tar"),
        signingKey: false,
      });
      const opened = await openBundle(exported.path);
      const redacted = (await opened.artifact(secret)).toString();
      assert.ok(!redacted.includes(KEY) && redacted.startsWith("rows\nkey "), redacted);
      const copy = sha256(redacted);
      assert.deepEqual(opened.manifest.spills, { count: 3, redacted: true, copies: { [secret]: copy } });
      assert.deepEqual(exported.spills, { count: 2, redacted: 1, raw: false });
      assert.ok(
        (await opened.artifact(payload)).toString().includes(KEY),
        "a payload is bundled as the recorder stored it",
      );
      assert.equal((await opened.artifact(clean)).toString(), "rows without secrets\n");
      assert.deepEqual(exported.missingArtifacts, [gone, goneRef].sort());
      assert.deepEqual(opened.manifest.missingArtifacts, [gone, goneRef].sort());
      assert.deepEqual(exported.missingSpills, [gone]);
      assert.equal(exported.artifacts, 3);
      const artifactMembers = opened.manifest.members.filter((m) => m.path.startsWith("artifacts/"));
      const byStoreId = [payload, secret, clean].sort().map((id) => `artifacts/${id === secret ? copy : id}.zst`);
      assert.deepEqual(
        artifactMembers.map((m) => m.path),
        byStoreId,
        "in the order of the ids the events name",
      );
      for (const m of opened.manifest.members.filter((e) => e.path.endsWith(".zst"))) {
        assert.equal(m.contentBytes, (await zstdDecompress(opened.member(m.path)!)).byteLength, m.path);
      }
    });
  });
  test("includeRawSpills bundles them as stored", async () => {
    await inStore(async (dir) => {
      const secret = (await new ArtifactStore(dir).put(`rows\nkey ${KEY}\n`)).sha256;
      writeHandMadeRun(dir, "run_raw", [eventLine("run_raw", 1, "spill", { sha256: secret })], done("run_raw"));
      const exported = await exportIncident({
        dir,
        runId: "run_raw",
        reason: "raw",
        out: join(dir, "b.tar"),
        signingKey: false,
        includeRawSpills: true,
      });
      const opened = await openBundle(exported.path);
      assert.deepEqual(exported.spills, { count: 1, redacted: 0, raw: true });
      assert.deepEqual(opened.manifest.spills, { count: 1, redacted: false, copies: {} });
      assert.ok((await opened.artifact(secret)).toString().includes(KEY));
    });
  });
});

describe("the bundle file", () => {
  test("by default under <dir>/incidents, named for the run and the UTC time; text members end with a newline; no linked runs, version 1", async () => {
    await inStore(async (dir) => {
      writeHandMadeRun(dir, "run_plain", [eventLine("run_plain", 1, "agent_start")], done("run_plain"));
      const exported = await exportIncident({ dir, runId: "run_plain", reason: "where", signingKey: false });
      assert.match(
        exported.path,
        new RegExp(
          `^${dir.replaceAll("/", "\\/")}\\/incidents\\/run_plain-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z\\.tar$`,
        ),
      );
      const members = await membersOf(exported.path);
      const text = (name: string) => members.find((m) => m.name === name)!.data.toString();
      assert.match(text("manifest.json"), /\n}\n$/);
      assert.match(text("SHA256SUMS"), / {2}events\.ndjson\.zst\n$/);
      const { manifest } = await openBundle(exported.path);
      assert.equal(manifest.version, 1);
      assert.equal("linkedRuns" in manifest, false);
      assert.equal(manifest.redaction, "unknown", "a run.json that does not say how it was redacted");
    });
  });
  test("a bundle that cannot be put in place leaves no temporary file", async () => {
    await inStore(async (dir) => {
      writeHandMadeRun(dir, "run_plain", [eventLine("run_plain", 1, "agent_start")], done("run_plain"));
      const out = join(dir, "out", "taken.tar");
      mkdirSync(join(out, "occupied"), { recursive: true });
      await assert.rejects(exportIncident({ dir, runId: "run_plain", reason: "x", out, signingKey: false }));
      assert.deepEqual(readdirSync(join(dir, "out")), ["taken.tar"]);
    });
  });
});

describe("linked runs", () => {
  const child = (
    dir: string,
    runId: string,
    parentRunId: string,
    more: Partial<RunManifest> = {},
    lines = eventLine(runId, 1, "agent_start"),
  ) => indexChildRun(writeHandMadeRun(dir, runId, [lines], done(runId, { parentRunId, ...more })), parentRunId);
  const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`hx-linked-${process.pid}-`));

  test("each child is bundled with the reason naming its parent; one reduced to its summary is left out; no temporary file stays", async () => {
    await inStore(async (dir) => {
      writeHandMadeRun(dir, "run_a", [eventLine("run_a", 1, "agent_start")], done("run_a"));
      child(dir, "run_b", "run_a");
      child(dir, "run_c", "run_a", { detail: "summary" });
      const exported = await exportIncident({
        dir,
        runId: "run_a",
        reason: "parent",
        out: join(dir, "a.tar"),
        signingKey: false,
      });
      assert.deepEqual(exported.linkedRuns, ["run_b"]);
      assert.equal(exported.artifacts, 0);
      const opened = await openBundle(exported.path);
      assert.equal(opened.linked[0]?.manifest.trigger.reason, "linked run of run_a");
      assert.deepEqual(leftovers(), []);
    });
  });
  test("runs naming each other as parent are bundled once each", async () => {
    await inStore(async (dir) => {
      child(dir, "run_a", "run_b");
      child(dir, "run_b", "run_a");
      assert.deepEqual(
        (await exportIncident({ dir, runId: "run_a", reason: "cycle", out: join(dir, "a.tar"), signingKey: false }))
          .linkedRuns,
        ["run_b"],
      );
    });
  });
  test("a child that cannot be exported fails the export with its own error", async () => {
    await inStore(async (dir) => {
      writeHandMadeRun(dir, "run_a", [eventLine("run_a", 1, "agent_start")], done("run_a"));
      child(
        dir,
        "run_b",
        "run_a",
        {},
        `${eventLine("run_b", 1, "agent_start")}${" ".repeat(MAX_EVENT_LINE_BYTES + 1)}\n`,
      );
      await assert.rejects(
        exportIncident({ dir, runId: "run_a", reason: "x", out: join(dir, "a.tar"), signingKey: false }),
        SegmentCorruptError,
      );
      assert.deepEqual(leftovers(), []);
    });
  });
});

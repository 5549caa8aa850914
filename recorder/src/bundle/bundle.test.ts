import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { ArtifactStore } from "@harnessx/artifacts";
import {
  BundleChecksumError,
  BundleFormatError,
  BundleTruncatedError,
  BundleUnsafePathError,
  BundleVersionError,
  FlightRecorderExtension,
  openBundle,
  type BundleManifest,
} from "../index.js";
import { echoScript, recordRunWithArtifact, scriptedAgent } from "../test-support/agents.js";
import { membersOf, writeTar } from "../test-support/bundle-surgery.js";
import { hasCommand, tempDir } from "../../../test/support/system.js";

const hasTar = hasCommand("tar");
const hasZstd = hasCommand("zstd");

describe("an incident bundle holds the run, exactly its artifacts, and checksums", () => {
  test("export then openBundle verifies everything; manifest first and complete", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runId, recorder, sha256 } = await recordRunWithArtifact(dir);
      const out = join(dir, "incident.tar");
      const exported = await recorder.exportIncident({ runId, reason: "ticket-42", out });
      assert.equal(exported.path, out);
      const bundle = await openBundle(out);
      const m = bundle.manifest;
      assert.equal(m.format, "harnessx.incident");
      assert.equal(m.version, 1);
      assert.equal(m.trigger.reason, "ticket-42");
      assert.equal(m.run.runId, runId);
      assert.equal(m.run.status, "completed");
      assert.equal(m.producer.node, process.version);
      assert.equal(m.countsByKind.tool_call_end, 2);
      assert.ok(m.window.fromTs! <= m.window.toTs!, "time window");
      assert.ok(
        m.redaction !== undefined &&
          m.redaction !== "off" &&
          m.redaction !== "unknown" &&
          m.redaction.keys.includes("authorization"),
        "redaction listed",
      );
      assert.equal(bundle.events.length, m.run.summary.events);
      const payloadRefs = bundle.events.filter((e) => e.payloadRef).map((e) => e.payloadRef!.sha256);
      assert.ok(payloadRefs.length > 0, "some payload went to an artifact");
      assert.deepEqual(
        new Set(bundle.artifacts),
        new Set([...payloadRefs, sha256]),
        "exactly the referenced artifacts",
      );
      assert.match((await bundle.artifact(sha256)).toString(), /^row,value/);
      assert.deepEqual(
        await new ArtifactStore(dir).holders(sha256),
        [`run:${runId}`],
        "the spill artifact is pinned by the run",
      );
    } finally {
      cleanup();
    }
  });

  test("tar -xf then zstd -d read it", {
    skip: (!hasTar || !hasZstd) && "tar or zstd command not installed",
  }, async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runId, recorder, sha256 } = await recordRunWithArtifact(dir);
      const { path } = await recorder.exportIncident({ runId, reason: "cli check", out: join(dir, "b.tar") });
      const listing = spawnSync("tar", ["-tf", path], { encoding: "utf8" });
      assert.equal(listing.stdout.split("\n")[0], "manifest.json", "manifest first");
      const into = join(dir, "x");
      spawnSync("mkdir", ["-p", into]);
      assert.equal(spawnSync("tar", ["-xf", path, "-C", into]).status, 0);
      assert.equal(spawnSync("zstd", ["-d", "-q", join(into, "events.ndjson.zst")]).status, 0);
      const lines = readFileSync(join(into, "events.ndjson"), "utf8").trim().split("\n");
      assert.equal(JSON.parse(lines[0]).kind, "agent_start");
      assert.equal(spawnSync("zstd", ["-d", "-q", join(into, "artifacts", `${sha256}.zst`)]).status, 0);
      assert.match(readFileSync(join(into, "artifacts", sha256), "utf8"), /^row,value/);
      const sums = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: into, encoding: "utf8" });
      if (sums.error === undefined) assert.equal(sums.status, 0, sums.stdout + sums.stderr);
    } finally {
      cleanup();
    }
  });

  test("autoExport on_failure writes a bundle when a run fails and says where", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir, autoExport: "on_failure" });
      const agent = new Agent({
        provider: new ScriptedProvider([{ error: { status: 400, message: "bad request" } }]),
        extensions: [recorder],
      });
      const result = await agent.run("fail please");
      await agent.close();
      assert.equal(result.status, "failed");
      assert.equal(recorder.bundles.length, 1);
      const bundle = await openBundle(recorder.bundles[0].path);
      assert.equal(bundle.manifest.trigger.reason, "on_failure");
      assert.equal(bundle.manifest.run.status, "failed");
      assert.ok(bundle.manifest.run.error?.message, "run error in the summary");
      assert.ok(recorder.bundles[0].path.startsWith(join(dir, "incidents")), "under <dir>/incidents");
      const ok = new FlightRecorderExtension({ dir: join(dir, "ok"), autoExport: "on_failure" });
      const fine = scriptedAgent(echoScript(1), [ok]);
      await fine.run("fine");
      await fine.close();
      assert.equal(ok.bundles.length, 0, "no bundle for a completed run");
    } finally {
      cleanup();
    }
  });
});

describe("openBundle refuses damaged or hostile bundles, naming the problem", () => {
  test("one tampered byte in a member is refused naming the member", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runId, recorder } = await recordRunWithArtifact(dir);
      const { path } = await recorder.exportIncident({ runId, out: join(dir, "t.tar") });
      const bytes = readFileSync(path);
      const members = await membersOf(path);
      const target = members.find((m) => m.name === "events.ndjson.zst")!;
      const offset = bytes.indexOf(target.data) + Math.floor(target.data.length / 2);
      bytes[offset] ^= 0xff;
      writeFileSync(path, bytes);
      await assert.rejects(
        openBundle(path),
        (e: unknown) =>
          e instanceof BundleChecksumError && e.member === "events.ndjson.zst" && /events\.ndjson\.zst/.test(e.message),
      );
    } finally {
      cleanup();
    }
  });

  test("a truncated file is refused as truncated", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runId, recorder } = await recordRunWithArtifact(dir);
      const { path } = await recorder.exportIncident({ runId, out: join(dir, "t.tar") });
      const bytes = readFileSync(path);
      for (const keep of [Math.floor(bytes.length / 2) + 100, bytes.length - 3000]) {
        writeFileSync(path, bytes.subarray(0, keep));
        await assert.rejects(openBundle(path), BundleTruncatedError, `cut at ${keep} of ${bytes.length}`);
      }
    } finally {
      cleanup();
    }
  });

  test("'../' and absolute member paths, links, unknown versions and non-bundles are refused", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runId, recorder } = await recordRunWithArtifact(dir);
      const { path } = await recorder.exportIncident({ runId, out: join(dir, "good.tar") });
      const members = await membersOf(path);
      const manifest = JSON.parse(members[0].data.toString()) as BundleManifest;
      const evil = join(dir, "evil.tar");
      for (const name of ["../escape.txt", "/etc/evil", "artifacts/../../x"]) {
        await writeTar(evil, [members[0], { name, data: Buffer.from("x") }]);
        await assert.rejects(
          openBundle(evil),
          (e: unknown) => e instanceof BundleUnsafePathError && e.member === name,
          name,
        );
      }
      await writeTar(evil, [members[0], { name: "link", data: Buffer.alloc(0), type: "symlink" }]);
      await assert.rejects(openBundle(evil), BundleUnsafePathError);
      await writeTar(evil, [
        { name: "manifest.json", data: Buffer.from(JSON.stringify({ ...manifest, version: 99 })) },
        ...members.slice(1),
      ]);
      await assert.rejects(
        openBundle(evil),
        (e: unknown) => e instanceof BundleVersionError && /version 99/.test(e.message),
      );
      await writeTar(evil, [...members.slice(1), members[0]]);
      await assert.rejects(openBundle(evil), BundleFormatError, "manifest not first");
      writeFileSync(evil, "this is not a tar file at all, just text ".repeat(40));
      await assert.rejects(openBundle(evil), BundleFormatError);
      await assert.rejects(openBundle(join(dir, "missing.tar")), BundleFormatError);
      assert.ok(
        existsSync(path) && statSync(path).size > 0 && readdirSync(dir).includes("good.tar"),
        "the good bundle is untouched",
      );
    } finally {
      cleanup();
    }
  });
});

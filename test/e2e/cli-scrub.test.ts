import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { FlightRecorderExtension, openBundle } from "@harnessx/recorder";
import { cliWorkspace, recordSupportRun } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

let runId: string;
let original: string;

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Every byte of a bundle's content as text: events and each artifact, decompressed. */
async function bundleText(path: string): Promise<string> {
  const bundle = await openBundle(path);
  const parts = [
    JSON.stringify(bundle.run),
    JSON.stringify(bundle.manifest),
    ...bundle.events.map((e) => JSON.stringify(e)),
  ];
  for (const id of bundle.artifacts) parts.push((await bundle.artifact(id)).toString("utf8"));
  return parts.join("\n");
}

before(async () => {
  // Recorded without redaction (as some internal stores are), and with payloads stored aside as artifacts.
  runId = (await recordSupportRun(cli.store, { inlinePayloadBytes: 300 }, undefined, { redact: false })).runId;
  original = join(cli.work, "original.tar");
  assert.equal((await cli.trace("export", runId, "-o", original)).code, 0);
});
after(() => cli.cleanup());

describe("trace scrub writes a new bundle with consistent pseudonyms", () => {
  test("emails become <email-1> everywhere, artifacts included; the original is untouched; no mapping unless asked", async () => {
    const before = sha(original);
    assert.match(await bundleText(original), /alice@example\.com/);
    assert.ok((await openBundle(original)).artifacts.length > 0, "the fixture stores payloads as artifacts");
    const filesBefore = readdirSync(cli.work).sort();
    const r = await cli.trace("--json", "scrub", "original.tar", "-o", "scrubbed.tar");
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as {
      path: string;
      replaced: Record<string, number>;
      distinctValues: number;
      mapping: string | null;
      artifactsRewritten: number;
    };
    assert.ok(result.replaced.email >= 3, JSON.stringify(result.replaced));
    assert.ok(result.artifactsRewritten > 0);
    assert.equal(result.mapping, null);
    assert.equal(sha(original), before, "original unchanged");
    assert.deepEqual(
      readdirSync(cli.work).sort(),
      [...filesBefore, "scrubbed.tar"].sort(),
      "only the new bundle was written",
    );

    const text = await bundleText(join(cli.work, "scrubbed.tar"));
    assert.doesNotMatch(text, /alice@example\.com/);
    assert.match(text, /<email-1>/);
    assert.doesNotMatch(text, /<email-2>/, "one original value, one pseudonym");
    assert.equal((await cli.trace("verify", "scrubbed.tar")).code, 0);
  });
  test("the scrubbed bundle still reads, and replays the pseudonymized conversation", async () => {
    const s = JSON.parse((await cli.trace("--json", "summary", "scrubbed.tar")).stdout) as {
      runId: string;
      events: number;
    };
    assert.equal(s.runId, runId);
    assert.equal(s.events, 20);
    const replay = await cli.trace("replay", "scrubbed.tar");
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  });
  test("--mapping writes pseudonym -> original to a separate local file", async () => {
    const r = await cli.trace("scrub", "original.tar", "-o", "scrubbed-2.tar", "--mapping", "mapping.json");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(cli.work, "mapping.json"), "utf8")), {
      "<email-1>": "alice@example.com",
    });
    assert.doesNotMatch(await bundleText(join(cli.work, "scrubbed-2.tar")), /alice@example\.com/);
  });
  test("a rules file adds patterns, keys and event kinds", async () => {
    writeFileSync(
      join(cli.work, "rules.json"),
      JSON.stringify({
        patterns: [{ name: "cust", regex: "CUST-\\d+" }],
        keys: ["plan"],
        kinds: ["loop_iteration_end"],
      }),
    );
    const r = await cli.trace("--json", "scrub", "original.tar", "-o", "scrubbed-3.tar", "--rules", "rules.json");
    assert.equal(r.code, 0, r.stderr);
    const replaced = (JSON.parse(r.stdout) as { replaced: Record<string, number> }).replaced;
    assert.ok(
      replaced.cust >= 2 && replaced["key:plan"] >= 1 && replaced["kind:loop_iteration_end"] === 3,
      JSON.stringify(replaced),
    );
    const text = await bundleText(join(cli.work, "scrubbed-3.tar"));
    assert.doesNotMatch(text, /CUST-4711/);
    assert.match(text, /<cust-1>/);
    assert.match(text, /"plan":"<plan-1>"/);
    const bundle = await openBundle(join(cli.work, "scrubbed-3.tar"));
    assert.ok(
      bundle.events
        .filter((e) => e.kind === "loop_iteration_end")
        .every((e) => e.payload === "<removed:loop_iteration_end>"),
    );
  });
  test("scrub never overwrites its input", async () => {
    const r = await cli.trace("scrub", "original.tar", "-o", "original.tar", "--force");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /scrub never changes the original/);
  });
});

describe("trace scrub covers run metadata as well as events", () => {
  test("a password and a key in a failed run's error leave run.json, manifest.json and the events", async () => {
    const secretPassword = "Tr0ub4dor-77";
    const secretKey = "sk-proj-ScrubMe0123456789abcdefghij";
    const agent = new Agent({
      redact: false,
      provider: new ScriptedProvider([
        { error: { status: 400, message: `connect failed: password=${secretPassword}; key ${secretKey}` } },
      ]),
      extensions: [new FlightRecorderExtension({ dir: cli.store })],
    });
    const failed = (await agent.run(`log in with password ${secretPassword}`)).runId;
    await agent.close();
    assert.equal((await cli.trace("export", failed, "-o", "failed.tar")).code, 0);
    assert.match(
      await bundleText(join(cli.work, "failed.tar")),
      new RegExp(secretPassword),
      "recorded without redaction: the secret is there to scrub",
    );
    const r = await cli.trace("scrub", "failed.tar", "-o", "failed-scrubbed.tar");
    assert.equal(r.code, 0, r.stderr);
    const bundle = await openBundle(join(cli.work, "failed-scrubbed.tar"));
    for (const [member, text] of [
      ["run.json", JSON.stringify(bundle.run)],
      ["manifest.json", JSON.stringify(bundle.manifest)],
      ["events", JSON.stringify(bundle.events)],
    ]) {
      assert.ok(
        !text.includes(secretPassword) && !text.includes(secretKey),
        `${member} still holds a secret: ${text.slice(0, 400)}`,
      );
    }
    assert.match(JSON.stringify(bundle.run.error), /password=<password-\d+>/);
  });
});

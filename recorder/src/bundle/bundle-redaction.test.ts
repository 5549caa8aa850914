import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { FlightRecorderExtension, openBundle, runDirOf } from "../index.js";
import { bundleText } from "../test-support/bundle-surgery.js";
import { tempDir } from "../../../test/support/system.js";

const API_KEY = "sk-proj-Zt8q3LmNv0pQ2rS4tU6wX8yZa1B3c5D7";
const PASSWORD = "Hunter2-Secret!";

describe("run metadata and bundle manifests are redacted like events", () => {
  test("a failed run's error message keeps no secret in run.json, the bundle's manifest or its events", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir });
      const provider = new ScriptedProvider([
        { error: { status: 400, message: `bad request: password=${PASSWORD} with key ${API_KEY}` } },
      ]);
      const agent = new Agent({ provider, extensions: [recorder] });
      const result = await agent.run("go");
      await agent.close();
      assert.equal(result.status, "failed");
      const runJson = readFileSync(join(runDirOf(dir, result.runId), "run.json"), "utf8");
      assert.match(runJson, /"message": "bad request: password=\[REDACTED\]/);
      const bundle = await recorder.exportIncident({
        runId: result.runId,
        reason: `ticket 7: user pasted ${API_KEY}`,
        out: join(dir, "b.tar"),
      });
      for (const [name, text] of [["run.json", runJson], ...(await bundleText(bundle.path))] as const) {
        assert.ok(!text.includes(PASSWORD) && !text.includes(API_KEY), `${name} holds a secret`);
      }
      assert.match(
        (await openBundle(bundle.path)).manifest.trigger.reason,
        /^ticket 7: user pasted \[REDACTED:api_key\]$/,
      );
    } finally {
      cleanup();
    }
  });
});

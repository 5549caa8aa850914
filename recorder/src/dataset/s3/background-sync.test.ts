import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { ConfigError } from "@harnessx/core";
import { HookEvent, type ErrorData } from "@harnessx/core/extension";
import { FlightRecorderExtension } from "../../index.js";
import { echoScript, scriptedAgent } from "../../test-support/agents.js";
import { startLocalS3, S3RVER_CREDENTIALS, type LocalS3 } from "../../test-support/s3-server.js";
import { tempDir } from "../../../../test/support/system.js";
import { S3TargetError } from "./s3-errors.js";

let s3: LocalS3;
const temp = tempDir("hx-s3-background-");
before(async () => {
  s3 = await startLocalS3();
});
after(async () => {
  await s3.close();
  temp.cleanup();
});

describe("FlightRecorderExtension({ sync })", () => {
  test("the runs an agent recorded reach the target by the time it closes", async () => {
    const dir = join(temp.dir, "ok");
    const recorder = new FlightRecorderExtension({
      dir,
      sync: {
        to: `s3://${s3.bucket}/bg`,
        everyMs: 3_600_000,
        connection: { endpoint: s3.endpoint, credentials: S3RVER_CREDENTIALS },
      },
    });
    const agent = scriptedAgent([...echoScript(1), ...echoScript(1)], [recorder]);
    const errors: ErrorData[] = [];
    agent.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data));
    const runs = [(await agent.run("one")).runId, (await agent.run("two")).runId];
    await agent.close();
    assert.deepEqual(errors, []);
    const synced = (await s3.keys("bg/runs/")).map((k) => k.slice(k.lastIndexOf("/") + 1, -".parquet".length));
    assert.deepEqual(synced.sort(), [...runs].sort());
  });

  test("an unreachable target: the runs complete, the failure is one ERROR event (source recorder), the store keeps everything", async () => {
    const dir = join(temp.dir, "down");
    const recorder = new FlightRecorderExtension({
      dir,
      sync: {
        to: `s3://${s3.bucket}/down`,
        everyMs: 3_600_000,
        connection: { endpoint: "http://127.0.0.1:9", credentials: S3RVER_CREDENTIALS, maxAttempts: 1 },
      },
    });
    const agent = scriptedAgent(echoScript(1), [recorder]);
    const errors: ErrorData[] = [];
    agent.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data));
    const result = await agent.run("one");
    await agent.close();
    assert.equal(result.status, "completed");
    const fromSync = errors.filter((e) => e.source === "recorder");
    assert.equal(fromSync.length, 1);
    assert.ok(fromSync[0]!.error instanceof S3TargetError && fromSync[0]!.error.problem === "unreachable");
    assert.equal(recorder.failed, undefined, "recording itself did not stop");
  });

  test("a bad target is refused when the recorder is made, with a typed error", () => {
    assert.throws(
      () => new FlightRecorderExtension({ sync: { to: "https://bucket/x" } }),
      (e: unknown) => e instanceof S3TargetError && e.problem === "bad_url",
    );
    assert.throws(() => new FlightRecorderExtension({ sync: { to: "s3://bucket/x", everyMs: 0 } }), ConfigError);
    assert.throws(
      () => new FlightRecorderExtension({ sync: { to: "s3://bucket/x", closeWithinMs: -1 } }),
      /closeWithinMs must be a positive number/,
    );
  });

  test("a target that never answers does not hold the agent's close: past closeWithinMs it closes, with an ERROR saying so", async () => {
    const silent = createServer(() => {}); // accepts every request and never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const dir = join(temp.dir, "silent");
      const recorder = new FlightRecorderExtension({
        dir,
        sync: {
          to: "s3://silent-bucket/x",
          everyMs: 3_600_000,
          closeWithinMs: 200,
          connection: { endpoint: `http://127.0.0.1:${port}`, credentials: S3RVER_CREDENTIALS, maxAttempts: 1 },
        },
      });
      const agent = scriptedAgent(echoScript(1), [recorder]);
      const errors: ErrorData[] = [];
      agent.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data));
      assert.equal((await agent.run("one")).status, "completed");
      await agent.close(); // would wait for the silent server's answer (forever) without the limit
      assert.ok(
        errors.some((e) => e.source === "recorder" && /did not finish within 200 ms of close/.test(e.error.message)),
        JSON.stringify(errors.map((e) => e.error.message)),
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

// Damage to sealed segments and their sidecars, as the store fuzzer produces it: each case is
// read as an intact run or refused with SegmentCorruptError, before anything is inflated.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  FlightRecorderExtension,
  openSegmentTables,
  readRun,
  SegmentCorruptError,
  type SealedSegmentInfo,
} from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { zstdBomb } from "../../../packages/artifacts/src/test-support/bombs.js";
import { tempDir } from "../../../test/support/system.js";

async function sealedRun(dir: string): Promise<{ runDir: string; first: string; events: number }> {
  const recorder = new FlightRecorderExtension({ dir });
  const agent = scriptedAgent(echoScript(2), [recorder]);
  const { runId } = await agent.run("seal me");
  await agent.close();
  const runDir = join(dir, "runs", runId);
  const first = join(runDir, "segments", readdirSync(join(runDir, "segments")).find((n) => n.endsWith(".zst"))!);
  return { runDir, first, events: (await readRun(runDir)).events.length };
}

const refusal = (path: string, message: RegExp) => (e: unknown) =>
  e instanceof SegmentCorruptError && e.path === path && message.test(e.message);

describe("sealed segments that are damaged or forged", () => {
  test("a torn sidecar: the intact segment is read as if never verified", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runDir, first, events } = await sealedRun(dir);
      writeFileSync(`${first}.sha256`, '{"sha256":"ab');
      assert.equal((await readRun(runDir)).events.length, events);
    } finally {
      cleanup();
    }
  });

  test("a truncated segment is refused, with or without its sidecar", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runDir, first } = await sealedRun(dir);
      writeFileSync(first, readFileSync(first).subarray(0, 20));
      await assert.rejects(readRun(runDir), refusal(first, /sha256 differs/));
      rmSync(`${first}.sha256`);
      await assert.rejects(readRun(runDir), refusal(first, /zstd frame does not decode \(truncated zstd data/));
    } finally {
      cleanup();
    }
  });

  test("garbage after the frame, without a sidecar, is refused", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runDir, first } = await sealedRun(dir);
      rmSync(`${first}.sha256`);
      appendFileSync(first, "garbage");
      await assert.rejects(readRun(runDir), refusal(first, /not a zstd frame at offset/));
    } finally {
      cleanup();
    }
  });

  test("a bomb under a forged sidecar is refused before it is inflated, by the JavaScript and the DuckDB readers", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { runDir, first } = await sealedRun(dir);
      const bomb = await zstdBomb(1_200_000_000);
      const info = JSON.parse(readFileSync(`${first}.sha256`, "utf8")) as SealedSegmentInfo;
      writeFileSync(first, bomb);
      writeFileSync(
        `${first}.sha256`,
        JSON.stringify({ ...info, sha256: createHash("sha256").update(bomb).digest("hex") }),
      );
      const rss = process.memoryUsage().rss;
      await assert.rejects(
        readRun(runDir),
        refusal(
          first,
          /could decode to 1200000000 bytes, more than \d+ \(a compression bomb, or a sidecar that lies\)/,
        ),
      );
      await assert.rejects(openSegmentTables(dir, [runDir]), refusal(first, /compression bomb/));
      rmSync(`${first}.sha256`);
      await assert.rejects(
        readRun(runDir),
        refusal(first, /more than 268435456/),
        "without a sidecar: the reader's ceiling",
      );
      assert.ok(process.memoryUsage().rss - rss < 64 * 1024 * 1024, "nothing inflated");
    } finally {
      cleanup();
    }
  });
});

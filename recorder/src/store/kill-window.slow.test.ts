import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readRun, RecordingStore } from "../index.js";
import { tempDir } from "../../../test/support/system.js";

const child = new URL("../test-support/recording-child.ts", import.meta.url).pathname;
/** The recorder's default drain interval: what a kill -9 can lose, by design. */
const FLUSH_INTERVAL_MS = 100;
/** What a busy shared machine adds to it (scheduling of the child's timer and of the kill). */
const SCHEDULING_SLACK_MS = 400;

/** Records until killed with SIGKILL at a random moment; returns when the kill was sent. */
function killMidRun(dir: string, afterMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, dir, "100000"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let killedAt = 0;
    proc.stdout.on("data", (chunk: Buffer) => {
      if (killedAt === 0 && chunk.toString().includes("progress")) {
        killedAt = -1;
        setTimeout(() => {
          killedAt = Date.now();
          proc.kill("SIGKILL");
        }, afterMs);
      }
    });
    proc.on("error", reject);
    proc.on("exit", (_code, signal) =>
      signal === "SIGKILL" ? resolve(killedAt) : reject(new Error(`child ended without being killed (${signal})`)),
    );
  });
}

describe("kill -9 loses at most the last drain interval", () => {
  test("the last recorded event is within the flush interval of the kill, over several kills", async () => {
    const windows: number[] = [];
    for (const afterMs of [150, 320, 470, 610, 830]) {
      const { dir, cleanup } = tempDir();
      try {
        const killedAt = await killMidRun(dir, afterMs);
        const [run] = await new RecordingStore(dir).listRuns();
        const { events } = await readRun(run!.dir);
        assert.ok(events.length > 50, `recorded ${events.length} events`);
        windows.push(killedAt - events[events.length - 1]!.ts);
      } finally {
        cleanup();
      }
    }
    windows.sort((a, b) => a - b);
    // The figure docs/reliability.md quotes.
    console.log(
      `kill -9 loss window over ${windows.length} kills: median ${windows[2]} ms, max ${windows[windows.length - 1]} ms (flush interval ${FLUSH_INTERVAL_MS} ms)`,
    );
    assert.ok(
      windows.every((w) => w >= 0 && w <= FLUSH_INTERVAL_MS + SCHEDULING_SLACK_MS),
      `windows ${windows.join(", ")} ms`,
    );
  });
});

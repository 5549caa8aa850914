import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cliWorkspace, recordSupportRun, runTrace, TRACE_BIN } from "@harnessx/cli/test-support";

const cli = cliWorkspace();
const LIVE_CHILD = createRequire(import.meta.url)
  .resolve("@harnessx/cli/test-support")
  .replace(/index\.ts$/, "live-run-child.ts");

interface Streamed {
  lines: Array<{ at: number; text: string }>;
  code: number | null;
  stderr: string;
}

/** Runs a process, timestamping each stdout line as it arrives. */
function streamed(command: string, args: string[], cwd = cli.work, timeoutMs = 60_000): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const lines: Streamed["lines"] = [];
    let partial = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop()!;
      for (const text of parts) lines.push({ at: performance.now(), text });
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")} did not end within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ lines, code, stderr });
    });
  });
}

let finishedRun: string;
before(async () => {
  finishedRun = (await recordSupportRun(cli.store)).runId;
});
after(() => cli.cleanup());

describe("trace tail follows a run while it is written", () => {
  test("--follow prints every event of a run another process is recording, once and in order, as it lands, across segment seals", async () => {
    const liveStore = join(cli.work, "live-store");
    // Run from this package, where `tsx` resolves.
    let exited = false;
    const recording = streamed(
      process.execPath,
      ["--import", "tsx", LIVE_CHILD, liveStore, "80"],
      process.cwd(),
    ).finally(() => (exited = true));
    // The run can be named once its recorder has written something.
    while (!exited && (!existsSync(join(liveStore, "runs")) || readdirSync(join(liveStore, "runs")).length === 0))
      await sleep(10);
    const tail = streamed(process.execPath, [
      TRACE_BIN,
      "--store",
      liveStore,
      "--json",
      "tail",
      "--latest",
      "--follow",
      "-n",
      "100000",
    ]);
    const [recorded, followed] = await Promise.all([recording, tail]);
    assert.equal(recorded.code, 0, recorded.stderr);
    const recordedEnd = recorded.lines.at(-1)!.at;
    assert.equal(followed.code, 0, followed.stderr);
    const runId = recorded.lines.at(-1)!.text.trim();

    const events = followed.lines.map((line) => JSON.parse(line.text) as { seq: number; kind: string });
    const shown = JSON.parse((await runTrace(["--store", liveStore, "--json", "show", runId])).stdout) as Array<{
      seq: number;
    }>;
    assert.deepEqual(
      events.map((e) => e.seq),
      shown.map((e) => e.seq),
      "every event once, in order, as `show` reads the finished run",
    );
    assert.equal(events[0]!.kind, "agent_start");
    assert.equal(events.at(-1)!.kind, "agent_end", "tail ends by itself once the run has ended");
    const early = followed.lines.filter((line) => line.at < recordedEnd).length;
    assert.ok(
      early > events.length / 4,
      `events must arrive while the run is recorded (${early} of ${events.length} before the recorder exited)`,
    );
    const sealed = readdirSync(join(liveStore, "runs", runId, "segments")).filter((name) => name.endsWith(".zst"));
    assert.ok(sealed.length >= 2, `the run must have rotated segments while followed (${sealed.length} sealed)`);
  });

  test("without --follow: the last -n events that match, then exit", async () => {
    const r = await cli.trace("tail", finishedRun, "-n", "2");
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /loop_iteration_end/);
    assert.match(lines[1]!, /agent_end {2}status completed/);
    const errors = await cli.trace("tail", "--latest", "--errors");
    assert.match(errors.stdout, /^#\d+ +\+\d+ms +✗ tool_call_end {2}flaky failed: Error: upstream timed out/);
  });

  test("a run must be named once: by id or --latest; a bundle is refused", async () => {
    assert.equal((await cli.trace("tail")).code, 2);
    assert.equal((await cli.trace("tail", finishedRun, "--latest")).code, 2);
    assert.equal((await cli.trace("export", finishedRun, "-o", "run.tar")).code, 0);
    const bundle = await cli.trace("tail", "run.tar");
    assert.equal(bundle.code, 2);
    assert.match(bundle.stderr, /not a bundle/);
  });
});

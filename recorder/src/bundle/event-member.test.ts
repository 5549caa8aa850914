// buildEventMember on runs written by hand: plain segments copied verbatim, sealed ones verified
// against their sidecars, damage re-encoded or refused, and the manifest's window and drop gaps.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentBound, zstdDecompress } from "@harnessx/artifacts";
import { MAX_EVENT_LINE_BYTES } from "../index.js";
import { sealSegment } from "../recording/seal.js";
import { SegmentCorruptError } from "../store/read-run.js";
import { buildEventMember } from "./event-member.js";
import { eventLine, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { tempDir } from "../../../test/support/system.js";

const RUN = "run_member";
const TS = 1_700_000_000_000;
const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/** A hand-made run in a fresh store, its segments sealed when asked; `check` gets the run dir. */
async function withRun(
  segments: Array<string | Buffer>,
  sealed: boolean,
  check: (runDir: string) => Promise<void>,
): Promise<void> {
  const { dir, cleanup } = tempDir();
  try {
    const runDir = writeHandMadeRun(dir, RUN, segments);
    if (sealed)
      for (const name of readdirSync(join(runDir, "segments"))) await sealSegment(join(runDir, "segments", name));
    await check(runDir);
  } finally {
    cleanup();
  }
}
const sealedFiles = (runDir: string) =>
  readdirSync(join(runDir, "segments"))
    .filter((n) => n.endsWith(".zst"))
    .map((n) => join(runDir, "segments", n));
const decoded = async (frames: Buffer) => (await zstdDecompress(frames)).toString();

describe("plain (unsealed) segments", () => {
  test("their complete lines are copied verbatim, whatever their key order and spacing; a torn last line is left out", async () => {
    const reordered = `{"seq": 2, "v": 1, "ts": ${TS + 2}, "runId": "${RUN}", "spanId": null, "parentSpanId": "span_run", "kind": "tool_call_start", "attrs": {}}\n`;
    const lines = eventLine(RUN, 1, "agent_start") + reordered;
    await withRun([lines, `${eventLine(RUN, 3, "agent_end")}{"v":1,"se`], false, async (runDir) => {
      const member = await buildEventMember(runDir);
      const text = lines + eventLine(RUN, 3, "agent_end");
      assert.equal(await decoded(member.frames), text);
      assert.equal(member.contentBytes, Buffer.byteLength(text));
      assert.equal(member.summary.events, 3);
      assert.deepEqual(member.window, { fromTs: TS + 1, toTs: TS + 3 });
    });
  });
  test("a run without a line: an empty frame, no window", async () => {
    await withRun([], false, async (runDir) => {
      const member = await buildEventMember(runDir);
      assert.equal(await decoded(member.frames), "");
      assert.equal(member.contentBytes, 0);
      assert.deepEqual(member.window, { fromTs: null, toTs: null });
    });
  });
  test("a segment holding only damage adds no frame; the others keep one each", async () => {
    await withRun(
      [eventLine(RUN, 1, "agent_start"), "garbage\n", eventLine(RUN, 2, "agent_end")],
      false,
      async (runDir) => {
        const member = await buildEventMember(runDir);
        assert.equal(contentBound(member.frames).frames, 2);
        assert.equal(await decoded(member.frames), eventLine(RUN, 1, "agent_start") + eventLine(RUN, 2, "agent_end"));
      },
    );
  });
  test("a line over the reader's limit makes the segment corrupt, naming it", async () => {
    const long = Buffer.concat([
      Buffer.from(eventLine(RUN, 1, "agent_start")),
      Buffer.alloc(MAX_EVENT_LINE_BYTES + 1, 0x20),
      Buffer.from("\n"),
    ]);
    await withRun([long], false, async (runDir) => {
      await assert.rejects(
        buildEventMember(runDir),
        (e: unknown) =>
          e instanceof SegmentCorruptError &&
          e.path.endsWith("000001.ndjson") &&
          /line 2 is 16,777,217 bytes/.test(e.message),
      );
    });
  });
});

describe("drop gaps", () => {
  test("each recorder.dropped event is a gap; missing counts and times fall back to 0 and the event's time", async () => {
    const lines = [
      eventLine(RUN, 1, "agent_start"),
      eventLine(RUN, 2, "recorder.dropped", { count: 3, fromTs: 10, toTs: 20 }),
      eventLine(RUN, 3, "recorder.dropped", {}),
    ];
    for (const sealed of [false, true]) {
      await withRun([lines.join("")], sealed, async (runDir) => {
        const member = await buildEventMember(runDir);
        assert.deepEqual(member.gaps, [
          { seq: 2, count: 3, fromTs: 10, toTs: 20 },
          { seq: 3, count: 0, fromTs: TS + 3, toTs: TS + 3 },
        ]);
        assert.equal(member.summary.dropped, 3);
      });
    }
  });
});

describe("sealed segments", () => {
  // A line whose first bytes are as the recorder writes them, but that is no JSON.
  const broken = `{"v":1,"seq":2,"ts":${TS + 2},"runId":"${RUN}","spanId":null,"parentSpanId":null,"kind":"x","attrs":{"a":}}\n`;
  test("one without a sidecar is not trusted: its lines are checked whole, its damage re-encoded away", async () => {
    await withRun(
      [eventLine(RUN, 1, "agent_start") + broken + eventLine(RUN, 3, "agent_end")],
      true,
      async (runDir) => {
        for (const file of sealedFiles(runDir)) rmSync(`${file}.sha256`);
        const member = await buildEventMember(runDir);
        assert.equal(await decoded(member.frames), eventLine(RUN, 1, "agent_start") + eventLine(RUN, 3, "agent_end"));
      },
    );
  });
  test("one that decodes to another size than its sidecar says is corrupt", async () => {
    await withRun([eventLine(RUN, 1, "agent_start")], true, async (runDir) => {
      const [file] = sealedFiles(runDir);
      const info = JSON.parse(readFileSync(`${file}.sha256`, "utf8")) as { bytes: number };
      writeFileSync(`${file}.sha256`, JSON.stringify({ ...info, bytes: info.bytes - 1 }));
      await assert.rejects(
        buildEventMember(runDir),
        (e: unknown) =>
          e instanceof SegmentCorruptError &&
          e.message.endsWith(`it decodes to ${info.bytes} bytes, its sidecar says ${info.bytes - 1}`),
      );
    });
  });
  test("one whose frame is damaged behind a sidecar made to match it is corrupt", async () => {
    const text = Array.from({ length: 200 }, (_, i) =>
      eventLine(RUN, i + 1, "tool_call_end", { note: `${i * 7919} ${Math.sin(i)}` }),
    ).join("");
    await withRun([text], true, async (runDir) => {
      const [file] = sealedFiles(runDir);
      assert.ok(file, "the run has a sealed segment");
      const frame = readFileSync(file);
      const damaged = frame.length - 10;
      frame[damaged] = (frame[damaged] ?? 0) ^ 0xff;
      writeFileSync(file, frame);
      const info = JSON.parse(readFileSync(`${file}.sha256`, "utf8")) as Record<string, unknown>;
      writeFileSync(`${file}.sha256`, JSON.stringify({ ...info, sha256: sha256(frame) }));
      await assert.rejects(
        buildEventMember(runDir),
        (e: unknown) => e instanceof SegmentCorruptError && /: its zstd frame does not decode \(.+\)$/.test(e.message),
      );
    });
  });
});

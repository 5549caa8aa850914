// A FIFO (named pipe) with no writer where a store, a bundle or a dataset should hold a file:
// opening one to read waits forever. Every reader refuses it at once with its typed error (these
// tests time out, rather than fail, when a reader waits on one).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ArtifactCorruptError, ArtifactStore } from "@harnessx/artifacts";
import {
  BundleFormatError,
  DatasetError,
  FlightRecorderExtension,
  listSegments,
  lockHolder,
  openBundle,
  openRecording,
  readDatasetMarker,
  RecordingSourceError,
  RunInvalidError,
} from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { eventLine, writeHandMadeRun } from "../test-support/hand-made-run.js";
import { makeFifo, tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
let runId: string;
before(async () => {
  ({ dir, cleanup } = tempDir());
  const agent = scriptedAgent(echoScript(1), [new FlightRecorderExtension({ dir, inlinePayloadBytes: 100 })]);
  ({ runId } = await agent.run("pipes"));
  await agent.close();
});
after(() => cleanup());

/** Replaces `path` with a FIFO (the file moved aside to `<path>.real`, put back by the returned function). */
function fifoInPlaceOf(path: string): () => void {
  renameSync(path, `${path}.real`);
  makeFifo(path);
  return () => {
    rmSync(path);
    renameSync(`${path}.real`, path);
  };
}

describe("a FIFO is refused, never waited on", () => {
  test("as run.json: RunInvalidError", async () => {
    const restore = fifoInPlaceOf(join(dir, "runs", runId, "run.json"));
    try {
      await assert.rejects(
        openRecording(join(dir, "runs", runId)),
        (error: unknown) => error instanceof RunInvalidError && /not a regular file/.test(error.message),
      );
    } finally {
      restore();
    }
  });

  test("as a plain segment (or a link to one): never listed; as a lock file: no holder", async () => {
    const runDir = writeHandMadeRun(dir, "run_piped", [eventLine("run_piped", 1, "agent_start")]);
    makeFifo(join(runDir, "segments", "000002.ndjson"));
    symlinkSync(join(runDir, "segments", "000002.ndjson"), join(runDir, "segments", "000003.ndjson"));
    makeFifo(join(runDir, "lock"));
    assert.deepEqual(
      (await listSegments(runDir)).map((s) => s.index),
      [1],
    );
    assert.equal(await lockHolder(runDir), undefined);
  });

  test("as a sealed segment's sidecar: as if there were none (the seal is then not trusted)", async () => {
    const segment = (await listSegments(join(dir, "runs", runId))).find((s) => s.sealed)!;
    const restore = fifoInPlaceOf(`${segment.path}.sha256`);
    try {
      const listed = (await listSegments(join(dir, "runs", runId))).find((s) => s.index === segment.index)!;
      assert.equal(listed.info, undefined);
    } finally {
      restore();
    }
  });

  test("as the bundle file named: BundleFormatError; as a bundle path given to a reader: RecordingSourceError", async () => {
    const pipe = join(dir, "incident.tar");
    makeFifo(pipe);
    await assert.rejects(
      openBundle(pipe),
      (error: unknown) => error instanceof BundleFormatError && /not a regular file/.test(error.message),
    );
    await assert.rejects(
      openRecording(pipe),
      (error: unknown) =>
        error instanceof RecordingSourceError && error.problem === "not_a_run" && /FIFO/.test(error.message),
    );
  });

  test("as an artifact: ArtifactCorruptError", async () => {
    const store = new ArtifactStore(dir);
    const { sha256 } = await store.put("an artifact to replace with a pipe");
    const restore = fifoInPlaceOf(store.pathOf(sha256));
    try {
      await assert.rejects(
        store.get(sha256),
        (error: unknown) => error instanceof ArtifactCorruptError && /not a regular file/.test(error.message),
      );
    } finally {
      restore();
    }
  });

  test("as a dataset's marker: DatasetError", async () => {
    const dataset = join(dir, "dataset");
    writeHandMadeRun(dataset, "run_unused", []);
    makeFifo(join(dataset, "harnessx-dataset.json"));
    await assert.rejects(
      readDatasetMarker(dataset),
      (error: unknown) => error instanceof DatasetError && /not a regular file/.test(error.message),
    );
  });
});

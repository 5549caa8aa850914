// The sync manifest lets a file go unsent when it is the one sent before: same size and same mtime.
// A file rewritten with as many bytes (a run's table exported again) has a new mtime and is sent.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startLocalS3, S3RVER_CREDENTIALS, type LocalS3 } from "../../test-support/s3-server.js";
import { tempDir } from "../../../../test/support/system.js";
import { uploadDataset, type FileOutcome } from "./upload-dataset.js";

let s3: LocalS3;
const temp = tempDir("hx-s3-changed-");
before(async () => {
  s3 = await startLocalS3();
});
after(async () => {
  await s3.close();
  temp.cleanup();
});

const RUNS = "runs/date=2026-12-03/run-7.parquet";

function write(dir: string, path: string, content: string, mtime: Date): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
  utimesSync(join(dir, path), mtime, mtime);
}

describe("a file the manifest knows is skipped only when both its size and its mtime match", () => {
  const dataset = join(temp.dir, "dataset");
  const manifestFile = join(temp.dir, "store", "sync", "m.ndjson");
  const sync = async () => {
    const outcomes: FileOutcome[] = [];
    const summary = await uploadDataset({
      datasetDir: dataset,
      to: `s3://${s3.bucket}/changed`,
      manifestFile,
      connection: { endpoint: s3.endpoint, credentials: S3RVER_CREDENTIALS },
      onFile: (o) => outcomes.push(o),
    });
    return { summary, outcome: outcomes.find((o) => o.path === RUNS) };
  };

  test("first sent, then skipped while unchanged", async () => {
    write(
      dataset,
      "harnessx-dataset.json",
      '{"format":"harnessx-dataset","version":1}',
      new Date("2026-12-03T10:00:00Z"),
    );
    write(dataset, RUNS, "run 7, first export", new Date("2026-12-03T10:00:00Z"));
    assert.equal((await sync()).outcome?.outcome, "uploaded");
    assert.deepEqual((await sync()).outcome, { path: RUNS, bytes: 19, outcome: "skipped", reason: "in_manifest" });
  });

  test("rewritten with as many bytes and a new mtime: sent again, the new bytes replace the old", async () => {
    const before = statSync(join(dataset, RUNS)).size;
    write(dataset, RUNS, "run 7, again export", new Date("2026-12-03T11:00:00Z"));
    assert.equal(statSync(join(dataset, RUNS)).size, before, "the same size");
    const { outcome } = await sync();
    assert.equal(outcome?.outcome, "uploaded");
    assert.equal((await s3.get(`changed/${RUNS}`)).toString(), "run 7, again export");
  });

  test("only touched (a new mtime, the same bytes): hashed, found the same, not sent", async () => {
    utimesSync(join(dataset, RUNS), new Date("2026-12-03T12:00:00Z"), new Date("2026-12-03T12:00:00Z"));
    const { summary, outcome } = await sync();
    assert.equal(outcome?.outcome, "skipped");
    assert.equal(summary.uploaded, 0);
  });
});

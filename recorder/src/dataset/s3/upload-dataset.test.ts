import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { startLocalS3, S3RVER_CREDENTIALS, type LocalS3 } from "../../test-support/s3-server.js";
import { tempDir } from "../../../../test/support/system.js";
import { uploadDataset, type FileOutcome } from "./upload-dataset.js";
import { S3TargetError } from "./s3-errors.js";
import { MULTIPART_PART_BYTES } from "./upload-file.js";

// The upload engine over a folder laid out as docs/datasets.md says (file contents do not matter to it).
const SHA = (c: string): string => c.repeat(64);
const FILES: Record<string, string | Buffer> = {
  "harnessx-dataset.json": '{"format":"harnessx-dataset","version":1}',
  [`objects/aa/${SHA("a")}.zst`]: "artifact a",
  "events/date=2026-12-01/run-1.parquet": "events of run 1",
  "spans/date=2026-12-01/run-1.parquet": "spans of run 1",
  "artifacts/date=2026-12-01/run-1.parquet": "artifact index of run 1",
  "runs/date=2026-12-01/run-1.parquet": "run 1",
  "runs/date=2026-12-02/run-2.parquet": "run 2, reduced by retention: its runs row only",
};
// A run whose export is still being written (no runs row yet) and a temp file of a write in progress.
const UNFINISHED: Record<string, string> = {
  "events/date=2026-12-02/run-3.parquet": "half",
  "runs/date=2026-12-01/run-1.parquet.tmp-4": "temp",
};

function writeDataset(dir: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

let s3: LocalS3;
const temp = tempDir("hx-s3-upload-");
before(async () => {
  s3 = await startLocalS3();
});
after(async () => {
  await s3.close();
  temp.cleanup();
});
const connection = () => ({ endpoint: s3.endpoint, credentials: S3RVER_CREDENTIALS });

describe("uploadDataset", () => {
  const dataset = join(temp.dir, "dataset");
  writeDataset(dataset, { ...FILES, ...UNFINISHED });
  const manifestFile = join(temp.dir, "store", "sync", "m.ndjson");

  test("sends the marker first, then objects, then each run's tables with its runs row last; unfinished runs and temp files stay", async () => {
    const order: FileOutcome[] = [];
    const summary = await uploadDataset({
      datasetDir: dataset,
      to: `s3://${s3.bucket}/fleet/a`,
      manifestFile,
      connection: connection(),
      concurrency: 1,
      onFile: (o) => order.push(o),
    });
    assert.equal(summary.uploaded, Object.keys(FILES).length);
    assert.deepEqual(summary.failed, []);
    assert.equal(order[0].path, "harnessx-dataset.json");
    assert.ok(order[1].path.startsWith("objects/"));
    const run1 = order.map((o) => o.path).filter((p) => p.endsWith("run-1.parquet"));
    assert.equal(run1.at(-1), "runs/date=2026-12-01/run-1.parquet");
    assert.deepEqual(
      await s3.keys("fleet/a/"),
      Object.keys(FILES)
        .map((p) => `fleet/a/${p}`)
        .sort(),
    );
    assert.equal((await s3.get("fleet/a/spans/date=2026-12-01/run-1.parquet")).toString(), "spans of run 1");
  });

  test("a rerun uploads nothing: every file is in the manifest", async () => {
    const summary = await uploadDataset({
      datasetDir: dataset,
      to: `s3://${s3.bucket}/fleet/a`,
      manifestFile,
      connection: connection(),
    });
    assert.deepEqual([summary.uploaded, summary.skipped, summary.failed.length], [0, Object.keys(FILES).length, 0]);
  });

  test("without a manifest (another machine, a lost store) files the target holds with the same digest are not sent again", async () => {
    const outcomes: FileOutcome[] = [];
    const summary = await uploadDataset({
      datasetDir: dataset,
      to: `s3://${s3.bucket}/fleet/a`,
      manifestFile: join(temp.dir, "other.ndjson"),
      connection: connection(),
      onFile: (o) => outcomes.push(o),
    });
    assert.equal(summary.uploaded, 0);
    assert.ok(outcomes.every((o) => o.outcome === "skipped" && o.reason === "already_stored"));
  });

  test("a table file whose content changed is sent again; the new bytes replace the old", async () => {
    writeDataset(dataset, { "runs/date=2026-12-02/run-2.parquet": "run 2, exported again" });
    const summary = await uploadDataset({
      datasetDir: dataset,
      to: `s3://${s3.bucket}/fleet/a`,
      manifestFile,
      connection: connection(),
    });
    assert.equal(summary.uploaded, 1);
    assert.equal((await s3.get("fleet/a/runs/date=2026-12-02/run-2.parquet")).toString(), "run 2, exported again");
  });

  test("a file larger than a part goes up as a multipart upload and arrives whole", async () => {
    const big = randomBytes(MULTIPART_PART_BYTES + 1024 * 1024);
    const dir = join(temp.dir, "big");
    writeDataset(dir, { "harnessx-dataset.json": FILES["harnessx-dataset.json"], [`objects/bb/${SHA("b")}.zst`]: big });
    const summary = await uploadDataset({
      datasetDir: dir,
      to: `s3://${s3.bucket}/big`,
      manifestFile: join(temp.dir, "big.ndjson"),
      connection: connection(),
    });
    assert.equal(summary.uploaded, 2);
    assert.ok((await s3.get(`big/objects/bb/${SHA("b")}.zst`)).equals(big));
  });
});

describe("a file that fails", () => {
  // A failure of one file, not of the target: here its local copy vanishes between the listing and
  // its upload (as a concurrent clean-up would make it), then comes back.
  const dataset = join(temp.dir, "one-fails");
  const events = "events/date=2026-12-05/run-a.parquet";
  writeDataset(dataset, {
    "harnessx-dataset.json": FILES["harnessx-dataset.json"],
    [events]: "events of run a",
    "runs/date=2026-12-05/run-a.parquet": "run a",
    "runs/date=2026-12-05/run-b.parquet": "run b",
  });
  const manifestFile = join(temp.dir, "one-fails.ndjson");

  test("is reported with its error, the other runs go, its run's runs row waits; the next sync sends both", async () => {
    const gone = (o: FileOutcome) => o.path === "harnessx-dataset.json" && rmSync(join(dataset, events));
    const summary = await uploadDataset({
      datasetDir: dataset,
      to: `s3://${s3.bucket}/one-fails`,
      manifestFile,
      connection: connection(),
      concurrency: 1,
      onFile: gone,
    });
    assert.deepEqual(
      summary.failed.map((f) => f.path),
      [events],
    );
    assert.match(summary.failed[0].error, /ENOENT/);
    assert.equal(summary.stoppedBy, undefined, "one file's failure does not stop the sync");
    assert.deepEqual(await s3.keys("one-fails/"), [
      "one-fails/harnessx-dataset.json",
      "one-fails/runs/date=2026-12-05/run-b.parquet",
    ]);
    writeDataset(dataset, { [events]: "events of run a" });
    const again = await uploadDataset({
      datasetDir: dataset,
      to: `s3://${s3.bucket}/one-fails`,
      manifestFile,
      connection: connection(),
    });
    assert.deepEqual([again.uploaded, again.failed.length], [2, 0]);
    assert.equal((await s3.keys("one-fails/")).length, 4);
  });
});

describe("a target that cannot be used gives one typed error before any transfer", () => {
  const dataset = join(temp.dir, "errors");
  writeDataset(dataset, FILES);
  const attempt = (to: string, conn: object) =>
    uploadDataset({ datasetDir: dataset, to, manifestFile: join(temp.dir, "e.ndjson"), connection: conn });

  test("wrong credentials", async () => {
    await assert.rejects(
      attempt(`s3://${s3.bucket}/x`, {
        endpoint: s3.endpoint,
        credentials: { accessKeyId: "nobody", secretAccessKey: "wrong" },
      }),
      (e: unknown) =>
        e instanceof S3TargetError &&
        e.problem === "credentials" &&
        /refused the credentials/.test(e.message) &&
        !e.message.includes("\n"),
    );
  });
  test("an unreachable endpoint", async () => {
    await assert.rejects(
      attempt(`s3://${s3.bucket}/x`, {
        endpoint: "http://127.0.0.1:9",
        credentials: S3RVER_CREDENTIALS,
        maxAttempts: 1,
      }),
      (e: unknown) =>
        e instanceof S3TargetError &&
        e.problem === "unreachable" &&
        /cannot reach the storage at http:\/\/127\.0\.0\.1:9/.test(e.message),
    );
  });
  test("a bucket that does not exist", async () => {
    await assert.rejects(
      attempt("s3://no-such-bucket/x", connection()),
      (e: unknown) => e instanceof S3TargetError && e.problem === "no_bucket",
    );
  });
  test("a URL that is not an S3 target", async () => {
    await assert.rejects(
      attempt("s3:/bucket", connection()),
      (e: unknown) => e instanceof S3TargetError && e.problem === "bad_url",
    );
  });
});

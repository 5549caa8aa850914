import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isS3Url, keyOf, parseS3Target } from "./s3-target.js";
import { S3TargetError } from "./s3-errors.js";
import { datasetFileOf } from "./dataset-files.js";

describe("parseS3Target", () => {
  test("a bucket with or without a prefix, trailing slashes dropped", () => {
    assert.deepEqual(parseS3Target("s3://recordings/prod/eu/"), {
      url: "s3://recordings/prod/eu",
      bucket: "recordings",
      prefix: "prod/eu",
    });
    assert.deepEqual(parseS3Target("s3://recordings"), { url: "s3://recordings", bucket: "recordings", prefix: "" });
    assert.equal(keyOf(parseS3Target("s3://recordings"), "runs/x.parquet"), "runs/x.parquet");
    assert.equal(keyOf(parseS3Target("s3://recordings/a"), "runs/x.parquet"), "a/runs/x.parquet");
  });

  for (const bad of [
    "https://recordings/x",
    "s3://",
    "s3://ab/x",
    "s3://Upper/x",
    "s3://-bucket/x",
    "s3://a..b/x",
    "s3://bucket//x",
    "s3://bucket/../x",
    "s3://bucket/a\u0007b",
    "recordings/x",
  ]) {
    test(`refuses ${JSON.stringify(bad)} with a typed error`, () => {
      assert.throws(
        () => parseS3Target(bad),
        (e: unknown) =>
          e instanceof S3TargetError &&
          e.problem === "bad_url" &&
          e.code === "s3_bad_url" &&
          /expected s3:\/\/bucket\/prefix/.test(e.message),
      );
    });
  }

  test("isS3Url tells a target from a folder", () => {
    assert.equal(isS3Url("s3://b/x"), true);
    assert.equal(isS3Url("./s3:/x"), false);
  });
});

describe("datasetFileOf: only the contract's files are synced", () => {
  test("table files, objects and the marker; not temp files, not other files", () => {
    assert.deepEqual(datasetFileOf("events/date=2026-12-03/run_1.parquet"), {
      path: "events/date=2026-12-03/run_1.parquet",
      date: "2026-12-03",
      runId: "run_1",
    });
    assert.ok(datasetFileOf(`objects/ab/ab${"0".repeat(62)}.zst`));
    assert.ok(datasetFileOf("harnessx-dataset.json"));
    for (const other of [
      ".run_1.parquet.tmp-1-abc",
      "events/date=2026-12-03/.run_1.parquet.tmp-1-ab",
      "events/date=12-03/run_1.parquet",
      `objects/cd/ab${"0".repeat(62)}.zst`,
      "notes.txt",
      "other/date=2026-12-03/x.parquet",
    ]) {
      assert.equal(datasetFileOf(other), undefined, other);
    }
  });
});

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startLocalS3, S3RVER_CREDENTIALS, type LocalS3 } from "../../test-support/s3-server.js";
import { listKeys } from "./list-keys.js";
import { connectS3 } from "./s3-client.js";

let s3: LocalS3;
before(async () => {
  s3 = await startLocalS3("paged");
});
after(async () => {
  await s3.close();
});

describe("a listing longer than one page (S3 returns at most 1,000 keys per request)", () => {
  test("every key comes back once, in order, across pages; startAfter holds on the first page only", async () => {
    const keys = Array.from(
      { length: 1_205 },
      (_, i) => `ds/runs/date=2026-12-0${1 + (i % 3)}/run_${String(i).padStart(5, "0")}.parquet`,
    ).sort();
    for (let i = 0; i < keys.length; i += 25)
      await Promise.all(keys.slice(i, i + 25).map((key) => s3.put(key, Buffer.from(key))));
    const connection = await connectS3({ endpoint: s3.endpoint, credentials: S3RVER_CREDENTIALS });
    try {
      const listed: string[] = [];
      for await (const { key, bytes } of listKeys(connection, "paged", "ds/runs/", undefined)) {
        listed.push(key);
        assert.equal(bytes, Buffer.byteLength(key));
      }
      assert.deepEqual(listed, keys);
      const since = "ds/runs/date=2026-12-02";
      const later: string[] = [];
      for await (const { key } of listKeys(connection, "paged", "ds/runs/", since)) later.push(key);
      assert.deepEqual(
        later,
        keys.filter((key) => key > since),
      );
      assert.ok(later.length > 0 && later.length < keys.length);
    } finally {
      connection.client.destroy();
    }
  });
});

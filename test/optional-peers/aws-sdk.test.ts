// @harnessx/recorder installed without the AWS SDK (an optional peer): the recorder works, and a
// dataset sync or fetch fails with MissingPackageError naming both packages to install.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { isolatedPackages, runModule } from "../support/isolated-package.js";

const app = isolatedPackages(["recorder"], ["@aws-sdk/client-s3", "@aws-sdk/lib-storage"]);
after(() => rmSync(app, { recursive: true, force: true }));

test("without the AWS SDK: fetchDataset and uploadDataset fail with MissingPackageError, nothing else is touched", () => {
  const out = runModule(
    app,
    `
    import { HarnessError } from "@harnessx/core";
    import { fetchDataset, uploadDataset } from "@harnessx/recorder";
    const describe = (e) => ({ harness: e instanceof HarnessError, name: e?.name, code: e?.code, message: e?.message });
    const connection = { endpoint: "http://127.0.0.1:9", credentials: { accessKeyId: "a", secretAccessKey: "b" } };
    const fetched = await fetchDataset({ from: "s3://bucket/prefix", into: "fetched", connection }).then(() => "fetched", describe);
    const uploaded = await uploadDataset({ datasetDir: "no-dataset", to: "s3://bucket/prefix", connection }).then(() => "uploaded", describe);
    console.log(JSON.stringify({ fetched, uploaded }));
  `,
  );
  assert.equal(out.status, 0, out.stderr);
  const expected = {
    harness: true,
    name: "MissingPackageError",
    code: "missing_package",
    message: 'Syncing datasets with S3 needs the "@aws-sdk/client-s3" package: npm install @aws-sdk/client-s3@^3.1175.0 @aws-sdk/lib-storage@^3.1175.0',
  };
  assert.deepEqual(JSON.parse(out.stdout), { fetched: expected, uploaded: expected });
});

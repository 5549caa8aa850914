// @harnessx/recorder installed without the AWS SDK (an optional peer): the recorder works, and a
// dataset sync or fetch fails with MissingPackageError naming both packages to install.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { isolatedPackages, runModule, runNode } from "../support/isolated-package.js";

const AWS = ["@aws-sdk/client-s3", "@aws-sdk/lib-storage"];
const MESSAGE =
  'An S3 dataset (sync, fetch or query) needs the "@aws-sdk/client-s3" package: npm install @aws-sdk/client-s3@^3.1175.0 @aws-sdk/lib-storage@^3.1175.0';
const app = isolatedPackages(["recorder"], AWS);
// The CLI with the recorder copied beside it: the recorder loads the SDK.
const cliApp = isolatedPackages(["cli", "exporters", "recorder"], AWS);
after(() => {
  rmSync(app, { recursive: true, force: true });
  rmSync(cliApp, { recursive: true, force: true });
});

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
    message: MESSAGE,
  };
  assert.deepEqual(JSON.parse(out.stdout), { fetched: expected, uploaded: expected });
});

test("without the AWS SDK: trace sync, and ls and query on an S3 dataset, exit 1 with one line naming the command", () => {
  const recorded = runModule(
    cliApp,
    `
    import { Agent, ScriptedProvider } from "@harnessx/core";
    import { FlightRecorderExtension } from "@harnessx/recorder";
    const agent = new Agent({ name: "a", provider: new ScriptedProvider([{ text: "hi" }]), extensions: [new FlightRecorderExtension()] });
    await agent.run("hello");
    await agent.close();
  `,
  );
  assert.equal(recorded.status, 0, recorded.stderr);
  const env = { AWS_ENDPOINT_URL: "http://127.0.0.1:9", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b" };
  for (const args of [
    ["sync", ".harnessx", "s3://bucket/prefix"],
    ["ls", "--dataset", "s3://bucket/prefix"],
    ["query", "--dataset", "s3://bucket/prefix", "select 1"],
  ]) {
    const out = runNode(cliApp, ["node_modules/@harnessx/cli/bin/trace.js", ...args], env);
    assert.equal(out.status, 1, `${args.join(" ")}: ${out.stderr}`);
    assert.equal(out.stderr, `trace: ${MESSAGE}\n`, args.join(" "));
  }
});

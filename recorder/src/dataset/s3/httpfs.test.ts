import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createSecretSql } from "./httpfs.js";

describe("reading a dataset in place through httpfs", () => {
  test("the secret carries what the SDK resolved, quoted, and addresses a custom endpoint as the SDK does", () => {
    assert.equal(
      createSecretSql({
        keyId: "AKIA'X",
        secret: "s",
        sessionToken: "t",
        region: "eu-west-1",
        endpoint: "http://127.0.0.1:9000",
        pathStyle: true,
      }),
      "CREATE TEMPORARY SECRET harnessx_s3 (TYPE s3, KEY_ID 'AKIA''X', SECRET 's', REGION 'eu-west-1', SESSION_TOKEN 't', ENDPOINT '127.0.0.1:9000', USE_SSL false, URL_STYLE 'path')",
    );
    assert.equal(
      createSecretSql({ keyId: "k", secret: "s", region: "us-east-1", pathStyle: false }),
      "CREATE TEMPORARY SECRET harnessx_s3 (TYPE s3, KEY_ID 'k', SECRET 's', REGION 'us-east-1')",
    );
  });
});

// An Error as recorded data: the fields harnessx errors carry, its cause in short, nothing absent
// written as a key.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { errorToJson } from "./error-json.js";
import { Redactor } from "./redactor.js";

describe("errorToJson", () => {
  test("name, message, code, kind, status, stack and an Error cause as its name and message", () => {
    const cause = new TypeError("socket closed");
    const error = Object.assign(new Error("upload failed", { cause }), {
      code: "E_UPLOAD",
      kind: "transient",
      status: 502,
    });
    error.name = "UploadError";
    assert.deepEqual(errorToJson(error), {
      name: "UploadError",
      message: "upload failed",
      code: "E_UPLOAD",
      kind: "transient",
      status: 502,
      stack: error.stack,
      cause: { name: "TypeError", message: "socket closed" },
    });
  });

  test("a cause that is not an Error is kept as it is; fields that are absent are not written", () => {
    const error = new Error("refused", { cause: { retryAfter: 3 } });
    delete error.stack;
    assert.deepEqual(errorToJson(error), { name: "Error", message: "refused", cause: { retryAfter: 3 } });
    const bare = new Error("plain");
    assert.deepEqual(Object.keys(errorToJson(bare)), ["name", "message", "stack"]);
  });

  test("falsy field values are written: a status 0, an empty code", () => {
    const error = Object.assign(new Error("odd"), { code: "", kind: 0, status: 0 });
    const json = errorToJson(error);
    assert.equal(json.code, "");
    assert.equal(json.kind, 0);
    assert.equal(json.status, 0);
  });

  test("through the redactor, the cause's message is redacted like the rest", () => {
    const error = new Error("login failed", { cause: new Error("password=hunter2-cause") });
    const out = new Redactor().redact(error, "error", []) as { cause: { message: string } };
    assert.equal(out.cause.message, "password=[REDACTED]");
  });
});

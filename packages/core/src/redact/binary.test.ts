// Binary data as redaction and the model see it: UTF-8 text is text (redacted), other bytes are
// base64 or, when their Latin-1 reading holds a secret, only their size.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { binaryForModel, binaryToJson, binaryView, isSerializedBuffer } from "./binary.js";
import { Redactor } from "./redactor.js";

const redactText = (text: string) => new Redactor().redactText(text);
/** Not UTF-8 (a lone continuation byte), though every byte is a printable Latin-1 character. */
const NOT_UTF8 = Buffer.from([0x41, 0xa9, 0x42]);

describe("binaryToJson", () => {
  test("UTF-8 text is kept as its redacted text, with the view's type and size", () => {
    assert.deepEqual(binaryToJson(Buffer.from("hello"), redactText), { type: "Buffer", bytes: 5, text: "hello" });
    assert.deepEqual(binaryToJson(new TextEncoder().encode("token: abc123def456"), redactText), {
      type: "Uint8Array",
      bytes: 19,
      text: "token: [REDACTED]",
    });
  });

  test("bytes that are not UTF-8 are base64, even when no control character is among them", () => {
    assert.deepEqual(binaryToJson(NOT_UTF8, redactText), {
      type: "Buffer",
      bytes: 3,
      base64: NOT_UTF8.toString("base64"),
    });
    assert.deepEqual(binaryToJson(new Uint8Array([104, 105, 0]), redactText), {
      type: "Uint8Array",
      bytes: 3,
      base64: "aGkA",
    });
  });

  test("a view of part of a buffer is read from its own offset", () => {
    const whole = Buffer.from("skip:kept:skip");
    assert.deepEqual(binaryToJson(new DataView(whole.buffer, whole.byteOffset + 5, 4), redactText), {
      type: "DataView",
      bytes: 4,
      text: "kept",
    });
  });
});

describe("binaryForModel", () => {
  test("text as text; other bytes as base64, described when nested in a larger value", () => {
    assert.equal(binaryForModel(Buffer.from("plain text\n"), false), "plain text\n");
    assert.equal(binaryForModel(Buffer.from("plain text\n"), true), "plain text\n");
    assert.equal(binaryForModel(NOT_UTF8, false), NOT_UTF8.toString("base64"));
    assert.deepEqual(binaryForModel(new Uint8Array([0, 255]), true), { type: "Uint8Array", bytes: 2, base64: "AP8=" });
  });
});

describe("binaryView and isSerializedBuffer", () => {
  test("every binary form is a view; anything else is not", () => {
    const bytes = new Uint8Array([1, 2]);
    assert.equal(binaryView(bytes), bytes);
    const data = new DataView(bytes.buffer);
    assert.equal(binaryView(data), data);
    assert.deepEqual(binaryView(bytes.buffer), new Uint8Array([1, 2]));
    assert.ok(binaryView(bytes.buffer) instanceof Uint8Array);
    assert.deepEqual(binaryView({ type: "Buffer", data: [1, 2] }), Buffer.from([1, 2]));
    for (const other of [
      null,
      undefined,
      "AQI=",
      12,
      [1, 2],
      { data: [1, 2] },
      { type: "Buffer", data: [1], extra: true },
    ])
      assert.equal(binaryView(other), undefined, JSON.stringify(other));
  });

  test('only { type: "Buffer", data: [...] } and nothing more is a Buffer serialized', () => {
    assert.equal(isSerializedBuffer({ type: "Buffer", data: [1] }), true);
    assert.equal(isSerializedBuffer({ type: "Buffer", data: "AQ==" }), false);
    assert.equal(isSerializedBuffer({ type: "Blob", data: [1] }), false);
    assert.equal(isSerializedBuffer({ type: "Buffer", data: [1], note: "x" }), false);
  });
});

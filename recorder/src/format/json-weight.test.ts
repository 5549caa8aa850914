// What decoding JSON from a recording may cost: values counted past strings, a line too dense to
// decode refused, a payload whose decoding would not fit the reader's memory refused before it is decoded.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { EventLineTooLongError, MAX_EVENT_LINE_VALUES, parseEventLines, ReadMemoryError } from "../index.js";
import { jsonValues } from "./json-values.js";
import { checkParseCost } from "./read-memory.js";
import { eventLine } from "../test-support/hand-made-run.js";

const text = (s: string) => Buffer.from(s);
/** An event line whose `note` attribute is `inner` (raw JSON). */
const lineWith = (inner: Buffer): Buffer => {
  const base = Buffer.from(eventLine("run_dense", 1, "custom", { name: "n" }).trimEnd());
  const at = base.indexOf('"attrs":{') + 9;
  return Buffer.concat([base.subarray(0, at), text('"note":'), inner, text(","), base.subarray(at)]);
};
const array = (element: string, count: number): Buffer =>
  Buffer.concat([text("["), Buffer.alloc(count * (element.length + 1) - 1, `${element},`), text("]")]);

describe("jsonValues", () => {
  test("counts strings, objects, arrays and elements; braces, commas and escaped quotes inside strings are not values", () => {
    const object = text('{"a":[1,2,{}],"b":"x,{[\\"]}"}');
    assert.equal(jsonValues(object, 0, object.length, 100), 9);
    const string = text('"only a string, with {braces}"');
    assert.equal(jsonValues(string, 0, string.length, 100), 1);
  });

  test("stops just past its budget", () => {
    assert.equal(jsonValues(array("0", 1000), 0, 1999, 10), 11);
  });
});

describe("a line too dense to decode", () => {
  test("over 1 MiB with more than MAX_EVENT_LINE_VALUES values is refused undecoded; as long a line of text is read", () => {
    const dense = lineWith(array("0", MAX_EVENT_LINE_VALUES + 10));
    assert.throws(
      () => parseEventLines(dense),
      (error: unknown) =>
        error instanceof EventLineTooLongError &&
        error.values === MAX_EVENT_LINE_VALUES &&
        /holds more than the 2,097,152 JSON values/.test(error.message),
    );
    const long = lineWith(text(JSON.stringify("x".repeat(dense.length))));
    assert.equal(parseEventLines(long).events.length, 1);
    assert.equal(
      parseEventLines(lineWith(array("0", MAX_EVENT_LINE_VALUES - 100))).events.length,
      1,
      "just under the limit is decoded",
    );
  });
});

describe("a payload whose decoding would not fit", () => {
  test("17 million values (34 MB, past 1 GiB once decoded) are refused before JSON.parse; 34 MB of text is not", () => {
    assert.throws(
      () => checkParseCost(array("0", 17_000_000)),
      (error: unknown) =>
        error instanceof ReadMemoryError &&
        /more than the 1,024 MiB a reader holds \(HARNESSX_READ_MEMORY=4GB raises it\)/.test(error.message),
    );
    checkParseCost(text(JSON.stringify({ text: "x".repeat(34_000_000) })));
  });
});

// A shape's hint literals decide which strings its rule runs on (detector-set.ts): a literal its
// matches can lack makes the rule blind to them, an empty one wakes it on every string. Each
// rule's hints are checked here against the rule itself, over the secret corpus.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SECRET_CORPUS } from "../../../../test/support/secret-corpus/index.js";
import { SECRET_SHAPES } from "./secret-shapes.js";

test("every hint literal is lower-case and holds a character", () => {
  for (const shape of SECRET_SHAPES) {
    if (!Array.isArray(shape.hint)) continue;
    for (const literal of shape.hint as readonly string[]) {
      assert.ok(literal.length > 0 && literal === literal.toLowerCase(), `${shape.name}: ${JSON.stringify(literal)}`);
    }
  }
});

test("a shape's hints admit every corpus text its rule finds a secret in", () => {
  const blind: string[] = [];
  const tried = new Set<string>();
  for (const shape of SECRET_SHAPES) {
    if (!Array.isArray(shape.hint)) continue;
    const literals = shape.hint as readonly string[];
    for (const sample of SECRET_CORPUS) {
      if (shape.find(sample.text).length === 0) continue;
      tried.add(shape.name);
      const lower = sample.text.toLowerCase();
      if (!literals.some((literal) => lower.includes(literal))) blind.push(`${shape.name} on ${sample.name}`);
    }
  }
  assert.deepEqual(blind, []);
  // Every hinted rule, the preset's and harnessx's own, finds a corpus sample: one with none goes unchecked.
  const unchecked = SECRET_SHAPES.filter((shape) => Array.isArray(shape.hint) && !tried.has(shape.name));
  assert.deepEqual(
    unchecked.map((shape) => shape.name),
    [],
  );
});

test("the preset's rules are all shapes but its comment filter and its file-level GCP rule", () => {
  const names = new Set(SECRET_SHAPES.map((shape) => shape.name));
  for (const name of ["aws", "github", "basicauth", "1password", "privatekey", "slack"])
    assert.ok(names.has(name), name);
  assert.ok(!names.has("filter-comments") && !names.has("gcp"));
});

test("the preset's AWS rule reports access key ids too, not only secret keys (enableIDScanRule)", () => {
  const aws = SECRET_SHAPES.find((shape) => shape.name === "aws") ?? assert.fail("no aws rule");
  const id = "AKIAQYLPMN5HHHFPZAM2";
  assert.deepEqual(
    aws.find(`id ${id} here`).map((span) => [span.start, span.end]),
    [[3, 3 + id.length]],
  );
});

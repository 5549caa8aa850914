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
  // The corpus reaches the preset's rules and harnessx's own: a rule with no sample goes unchecked.
  for (const name of [
    "aws",
    "github",
    "gitlab",
    "openai",
    "anthropic",
    "sendgrid",
    "stripe",
    "slack",
    "npm",
    "1password",
  ]) {
    assert.ok(tried.has(name), `no corpus sample for the ${name} rule`);
  }
});

// harnessx's own vendor token shapes, one by one: each names what it hides, hides the whole token
// (a prefix alone would leave the rest on disk), and leaves its prefix with a too-short tail
// alone. The corpus gives every shape at least one real-format sample.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SECRET_CORPUS } from "../../../../test/support/secret-corpus/index.js";
import { Redactor } from "./redactor.js";
import { TOKEN_SHAPES } from "./token-shapes.js";

const redactor = new Redactor();
const samplesOf = (shape: (typeof TOKEN_SHAPES)[number]) =>
  SECRET_CORPUS.filter((sample) => shape.find(sample.secret).length > 0);

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
/** Shapes whose hint ends the token (`..._mmk`, `...-us21`), or whose prefix secretlint claims at any length (`xox?-`). */
const NO_SHORT_FORM = new Set(["maxmind", "mailchimp", "slack"]);

/** Shapes of several forms, and a corpus sample of each form: no alternative may go unused. */
const FORMS: Array<[string, string[]]> = [
  ["gitlab", ["GitLab personal access token", "GitLab routable personal access token"]],
  ["google_oauth", ["Google OAuth client secret", "Google OAuth access token", "Google OAuth refresh token"]],
  ["square", ["Square access token", "Square production access token", "Square OAuth secret"]],
  ["flyio", ["Fly.io token", "Fly.io macaroon"]],
  ["1password", ["1Password service account token", "1Password secret key"]],
  ["supabase", ["Supabase access token", "Supabase secret key"]],
  [
    "sourcegraph",
    ["Sourcegraph access token", "Sourcegraph access token (no instance id)", "Sourcegraph local access token"],
  ],
  ["flutterwave", ["Flutterwave secret key", "Flutterwave live secret key"]],
  ["webhook", ["Microsoft Teams webhook", "Discord webhook"]],
];

describe("the token shapes", () => {
  test("a shape of several forms finds each form whole", () => {
    const missed: string[] = [];
    for (const [label, names] of FORMS) {
      const shapes = TOKEN_SHAPES.filter((shape) => shape.name === label);
      for (const name of names) {
        const sample = SECRET_CORPUS.find((s) => s.name === name) ?? assert.fail(`no corpus sample ${name}`);
        const whole = shapes.some((shape) =>
          shape.find(sample.secret).some((span) => span.start === 0 && span.end === sample.secret.length),
        );
        if (!whole) missed.push(`${label}: ${name}`);
      }
    }
    assert.deepEqual(missed, []);
  });

  test("each has a corpus sample, and each sample comes out as one replacement naming its shape", () => {
    const wrong: string[] = [];
    for (const shape of TOKEN_SHAPES) {
      const samples = samplesOf(shape);
      if (samples.length === 0) wrong.push(`${shape.name}: no sample in the corpus`);
      if (!/^[a-z0-9_]+$/.test(shape.name)) wrong.push(`${JSON.stringify(shape.name)}: not a label`);
      for (const { secret, name, source } of samples) {
        const out = redactor.redactText(`see ${secret} now`);
        if (out !== `see [REDACTED:${shape.name}] now`) wrong.push(`${shape.name} (${name}): ${out.slice(0, 100)}`);
        // The label names the vendor the corpus documents the format under.
        if (!squash(`${name} ${source}`).includes(squash(shape.name))) wrong.push(`${shape.name} labels ${name}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test("a prefix followed by three characters is no token", () => {
    const redacted: string[] = [];
    for (const shape of TOKEN_SHAPES) {
      if (NO_SHORT_FORM.has(shape.name)) continue;
      const hints = Array.isArray(shape.hint) ? shape.hint : [];
      for (const { secret } of samplesOf(shape)) {
        const lower = secret.toLowerCase();
        const prefixEnd = Math.max(
          0,
          ...hints.map((hint) => (lower.includes(hint) ? lower.indexOf(hint) + hint.length : 0)),
        );
        const short = `see ${secret.slice(0, prefixEnd + 3)} now`;
        if (redactor.redactText(short) !== short) redacted.push(`${shape.name}: ${short}`);
      }
    }
    assert.deepEqual(redacted, []);
  });
});

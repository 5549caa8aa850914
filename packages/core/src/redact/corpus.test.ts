import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LOOK_ALIKES, SECRET_CORPUS, leaks } from "../../../../test/support/secret-corpus/index.js";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();

describe("the secret corpus (providers' documented formats, gitleaks and secretlint rules)", () => {
  test("every claimed format is caught, as text, as a field and on the recorder's fast path", () => {
    const claimed = SECRET_CORPUS.filter((s) => s.claimed);
    const missed: string[] = [];
    for (const sample of claimed) {
      const text = redactor.redactText(sample.text);
      const field = JSON.stringify(redactor.redact({ output: sample.text }, "payload", []));
      const fast =
        redactor.jsonIfClean({ output: sample.text }) ?? redactor.redactToJson({ output: sample.text }, "payload", [])!;
      for (const [how, out] of [
        ["text", text],
        ["field", field],
        ["fast path", fast],
      ]) {
        if (leaks(out, sample.secret)) missed.push(`${sample.name} (${sample.source}) as ${how}: ${out.slice(0, 160)}`);
      }
    }
    const unclaimed = SECRET_CORPUS.filter((s) => !s.claimed);
    const caughtAnyway = unclaimed.filter((s) => !leaks(redactor.redactText(s.text), s.secret)).length;
    // The figure docs/reliability.md quotes.
    console.log(
      `redaction corpus: ${SECRET_CORPUS.length} formats, ${claimed.length} claimed, ${claimed.length - new Set(missed.map((m) => m.split(" (")[0])).size} caught; ${unclaimed.length} not claimed (${caughtAnyway} caught anyway)`,
    );
    assert.ok(SECRET_CORPUS.length >= 150, `only ${SECRET_CORPUS.length} formats`);
    assert.deepEqual(missed, []);
  });

  test("the formats not claimed are the ones docs/redaction.md names", () => {
    const unclaimed = SECRET_CORPUS.filter((s) => !s.claimed).map((s) => s.name);
    assert.deepEqual(unclaimed.sort(), [
      ".pgpass line",
      "Azure DevOps PAT variable",
      "docker login -p <password>",
      "mysql -p<password>",
      "password alone in free text",
    ]);
  });

  test("look-alikes are left alone: hashes, ids, lockfiles, ordinary flags and URLs, counts", () => {
    const changed = LOOK_ALIKES.filter((text) => redactor.redactText(text) !== text).map(
      (text) => `${text.slice(0, 80)} -> ${redactor.redactText(text).slice(0, 80)}`,
    );
    const lockfile = readFileSync(new URL("../../../../package-lock.json", import.meta.url), "utf8");
    console.log(
      `false positives: ${changed.length} of ${LOOK_ALIKES.length} look-alikes changed; this repository's package-lock.json (${lockfile.length} characters) ${redactor.redactText(lockfile) === lockfile ? "unchanged" : "changed"}`,
    );
    assert.deepEqual(changed, []);
    assert.equal(redactor.redactText(lockfile), lockfile);
  });
});

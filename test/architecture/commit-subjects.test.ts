// CONTRIBUTING.md asks for a commit subject under 72 characters, the why in the body. The history
// from the day the rule was written keeps it; older commits are left as they are.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { root } from "./imports.js";

/** Commits made from this moment on keep the rule (the day CONTRIBUTING.md wrote it down). */
export const RULE_SINCE = "2026-12-05T00:00:00Z";
/** The longest subject allowed: under 72 characters. */
export const MAX_SUBJECT = 71;

/** Each commit's subject from `since` on, or why the history cannot be read here. */
function subjectsSince(since: string): string[] | string {
  const log = spawnSync("git", ["log", `--since=${since}`, "--no-merges", "--format=%h %s"], {
    cwd: root,
    encoding: "utf8",
  });
  if (log.error || log.status !== 0) return `no git history here (${log.error?.message ?? log.stderr.trim()})`;
  return log.stdout.split("\n").filter(Boolean);
}

/** The lines (`<hash> <subject>`) whose subject is longer than the rule allows. */
export function longSubjects(lines: readonly string[]): string[] {
  return lines.filter((line) => line.slice(line.indexOf(" ") + 1).length > MAX_SUBJECT);
}

describe("commit messages", () => {
  test("a subject of 71 characters passes, one of 72 does not", () => {
    assert.deepEqual(longSubjects([`abc1234 ${"x".repeat(71)}`]), []);
    assert.deepEqual(longSubjects([`abc1234 ${"x".repeat(72)}`]), [`abc1234 ${"x".repeat(72)}`]);
  });

  const subjects = subjectsSince(RULE_SINCE);
  test("every commit since the rule has a subject under 72 characters", {
    skip: typeof subjects === "string" && subjects,
  }, () => {
    assert.deepEqual(longSubjects(subjects as string[]), []);
  });
});

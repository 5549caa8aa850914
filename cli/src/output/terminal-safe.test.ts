import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { escapeJsonControls, terminalSafe } from "./terminal-safe.js";

describe("terminalSafe strips what a terminal would act on", () => {
  const cases: Array<[string, string, string]> = [
    ["colour (SGR)", "a\x1b[31mred\x1b[0m", "ared"],
    ["clear screen and cursor moves", "x\x1b[2J\x1b[H\x1b[10;5Hy", "xy"],
    ["window title (OSC, BEL)", "a\x1b]0;pwned\x07b", "ab"],
    ["hyperlink (OSC 8, ST)", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"],
    ["clipboard write (OSC 52) left open", "ok\x1b]52;c;ZXZpbA==", "ok"],
    ["DCS string", "a\x1bP1$r\x1b\\b", "ab"],
    ["C1 CSI and OSC", "a\x9b2Jb\x9d0;t\x07c", "abc"],
    ["two-byte escapes", "a\x1bcb\x1b7c\x1b(Bd", "abcd"],
    ["a lone ESC at the end", "abc\x1b", "abc"],
    ["carriage return, backspace, bell, NUL, DEL, C1", "a\rb\bc\x07d\x00e\x7ff\x85g", "abcdefg"],
  ];
  for (const [what, input, expected] of cases) {
    test(what, () => assert.equal(terminalSafe(input), expected));
  }
  test("tab, newline and printable Unicode are kept", () => {
    assert.equal(terminalSafe("a\tb\nc é 漢字 🙂"), "a\tb\nc é 漢字 🙂");
  });
});

describe("escapeJsonControls", () => {
  test("DEL and C1 become escapes; the JSON parses back to the same value", () => {
    const value = { s: "a\x7fb\x9b2Jc\x85" };
    const json = escapeJsonControls(JSON.stringify(value));
    assert.equal(/[\x7f-\x9f]/.test(json), false);
    assert.deepEqual(JSON.parse(json), value);
  });
});

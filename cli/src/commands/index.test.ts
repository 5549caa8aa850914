import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { commandNamed, loadCommands } from "./index.js";

const argv = (...words: string[]) => ["node", "trace", ...words];

describe("only the command being run is loaded", () => {
  test("the command is the first word that is not a global option or a global option's value", () => {
    assert.equal(commandNamed(argv("ls")), "ls");
    assert.equal(commandNamed(argv("--json", "-q", "summary", "last")), "summary");
    assert.equal(
      commandNamed(argv("--store", "show", "query", "last", "SELECT 1")),
      "query",
      "a store folder named like a command is the store",
    );
    assert.equal(commandNamed(argv("--store=/tmp/x", "--no-color", "report", "last")), "report");
  });

  test("help, the version, a mistyped command and a bare `--` name none: every command is loaded", async () => {
    for (const words of [[], ["--help"], ["-V"], ["help", "ls"], ["lss"], ["--", "ls"], ["--store", "x"]])
      assert.equal(commandNamed(argv(...words)), undefined, words.join(" "));
    const all = await loadCommands();
    assert.deepEqual(all.map((spec) => spec.define().name()).slice(0, 3), ["ls", "summary", "show"]);
    assert.equal(all.length, 21);
    assert.deepEqual(
      (await loadCommands(["diff"])).map((spec) => spec.define().name()),
      ["diff"],
    );
  });
});

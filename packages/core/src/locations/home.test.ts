// Where the user's harnessx folder and trust file are.
import assert from "node:assert/strict";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { harnessxHome, trustFilePath } from "./home.js";

describe("the user's harnessx folder", () => {
  test("is HARNESSX_HOME when set, else ~/.harnessx (an empty value too)", () => {
    assert.equal(harnessxHome({ HARNESSX_HOME: "/data/hx-home" }), "/data/hx-home");
    assert.equal(harnessxHome({}), join(homedir(), ".harnessx"));
    assert.equal(harnessxHome({ HARNESSX_HOME: "" }), join(homedir(), ".harnessx"));
  });

  test("holds the trust file", () => {
    assert.equal(trustFilePath("/data/hx-home"), join("/data/hx-home", "trust.json"));
  });
});

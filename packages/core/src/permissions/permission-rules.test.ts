// Rules by name and by pattern: an exact rule wins, then the longest pattern, then the default.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PermissionManager } from "./permission-manager.js";

test("pattern rules cover a family of tools; exact rules and longer patterns win", () => {
  const manager = new PermissionManager({
    default: "deny",
    rules: { "mcp__*": "ask", "mcp__web__*": "allow", mcp__web__delete: "deny" },
  });
  // mcp__ patterns grant the MCP extension's tools (pattern-owners.test.ts has the rest of the owner rule).
  const decide = (name: string) => [
    manager.resolve(name, undefined, name.startsWith("mcp__") ? "mcp" : undefined).decision,
    manager.resolve(name, undefined, name.startsWith("mcp__") ? "mcp" : undefined).reason,
  ];
  assert.deepEqual(decide("mcp__web__echo"), ["allow", 'rule for "mcp__web__*"']);
  assert.deepEqual(decide("mcp__web__delete"), ["deny", 'rule for "mcp__web__delete"']);
  assert.deepEqual(decide("mcp__files__read"), ["ask", 'rule for "mcp__*"']);
  assert.deepEqual(decide("bash"), ["deny", "default"]);
  // Regex characters in a pattern are literal.
  manager.set("a.b*", "allow");
  assert.equal(manager.resolve("aXb1").decision, "deny");
  assert.equal(manager.resolve("a.b1").decision, "allow");
});

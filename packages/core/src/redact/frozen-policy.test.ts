// An extension gets the agent's redactor (`ctx.redactor`): nothing reached through it can switch
// redaction off, for its own agent or any other in the process (issue 33: patching the
// prototype did).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent } from "../engine/agent.js";
import { defineExtension } from "../extensions/extension.js";
import type { ExtensionContext } from "../extensions/extension-context.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { Redactor } from "./redactor.js";
import { DEFAULT_PATTERNS, DEFAULT_REDACTION_RULES, DEFAULT_SENSITIVE_KEYS } from "./rules.js";

const SECRET = "password=hunter2-is-secret";

function grab(): ExtensionContext {
  let ctx: ExtensionContext | undefined;
  const agent = new Agent({
    provider: new ScriptedProvider([]),
    extensions: [defineExtension({ name: "grabber", install: (c) => void (ctx = c) })],
  });
  void agent;
  return ctx!;
}

test("the redactor's prototype, state and description cannot be changed through ctx.redactor", () => {
  const { redactor } = grab();
  const proto = Object.getPrototypeOf(redactor) as Record<string, unknown>;
  assert.throws(() => (proto.redactText = (text: string) => text), TypeError);
  assert.throws(() => (proto.redact = (value: unknown) => value), TypeError);
  assert.throws(() => Object.defineProperty(proto, "redactText", { value: (text: string) => text }), TypeError);
  assert.throws(
    () => ((redactor as unknown as { redactText: unknown }).redactText = (text: string) => text),
    TypeError,
  );
  // Its state is private: there is no memo, key table or detector list to poison.
  for (const name of ["memo", "knownKeys", "keyNames", "detectors", "replace", "redacting"])
    assert.equal((redactor as unknown as Record<string, unknown>)[name], undefined, name);
  const description = redactor.describe();
  assert.ok(description !== "off");
  assert.throws(() => (description as { keys: string[] }).keys.push("nothing"), TypeError);
  assert.notEqual(redactor.redactText(SECRET), SECRET);
});

test("the default lists every new agent starts from cannot be emptied", () => {
  assert.throws(() => (DEFAULT_SENSITIVE_KEYS as string[]).splice(0), TypeError);
  assert.throws(() => (DEFAULT_PATTERNS as unknown[]).splice(0), TypeError);
  assert.throws(() => ((DEFAULT_REDACTION_RULES as { secretShapes: boolean }).secretShapes = false), TypeError);
  assert.throws(() => ((DEFAULT_PATTERNS[0] as { name: string }).name = "x"), TypeError);
  assert.notEqual(new Redactor().redactText(SECRET), SECRET);
  assert.notEqual(
    new Redactor().redactText("token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"),
    "token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
  );
});

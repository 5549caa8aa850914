// The shape rules of a declared contribution as a whole: what is not a contribution, the trust
// and attribution it cannot claim, the kinds it may hold. Each refusal names the member and says
// what was wrong, and each value just inside a rule is accepted.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ExtensionContractError, PrivilegeWideningError } from "../errors.js";
import { echoTool } from "../test-support/helpers.js";
import { raw, refuses, validate } from "../test-support/contribution-shapes.js";
import { contribution } from "./contribution.js";

describe("the value as a whole", () => {
  const expected = (got: string) =>
    `contribute() must return contribution("x", { tools, prompts, policies, lifecycle }), got ${got}`;
  for (const [label, value, got] of [
    ["null", null, "null"],
    ["nothing", undefined, "undefined"],
    ["an array", [], "an array"],
    ["a number", 42, "number"],
    ["a string", "tools", '"tools"'],
  ] as const) {
    test(`${label} is not a contribution`, () => refuses(value, ExtensionContractError, "contribution", expected(got)));
  }

  test("an extension cannot declare its level or its source", () => {
    const message =
      "level and source are set by the host from where the extension was loaded; an extension cannot declare its own trust";
    refuses(raw({ level: "builtin" }), PrivilegeWideningError, "contribution", message);
    refuses(raw({ source: "/trusted/file.ts" }), PrivilegeWideningError, "contribution", message);
  });

  test("a value attributed to another extension, or to none, is widening", () => {
    refuses(
      { ...contribution("y") },
      PrivilegeWideningError,
      "contribution",
      'the value is attributed to "y"; an extension may only contribute under its own name',
    );
    refuses({ tools: [] }, PrivilegeWideningError, "contribution", /attributed to undefined/);
  });

  test("registered kinds may be present empty, never with members or as something else", () => {
    assert.doesNotThrow(() =>
      validate(raw({ middleware: [], observers: [], commands: [], templates: [], messageTypes: [] })),
    );
    refuses(
      raw({ templates: [{ name: "t" }] }),
      ExtensionContractError,
      "contribution",
      "templates cannot be declared; register them in install(ctx)",
    );
    refuses(
      raw({ observers: {} }),
      ExtensionContractError,
      "contribution",
      "observers cannot be declared; register them in install(ctx)",
    );
  });

  test("a declared kind is an array of objects", () => {
    refuses(raw({ tools: {} }), ExtensionContractError, "contribution", "tools must be an array, got an object");
    refuses(
      raw({ policies: Promise.resolve([]) }),
      ExtensionContractError,
      "contribution",
      "policies must be an array, got a promise",
    );
    refuses(raw({ prompts: "guide" }), ExtensionContractError, "contribution", 'prompts must be an array, got "guide"');
    refuses(
      raw({ policies: [null] }),
      ExtensionContractError,
      "contribution",
      "every member of policies must be an object, got null",
    );
    refuses(
      raw({ lifecycle: [7] }),
      ExtensionContractError,
      "contribution",
      "every member of lifecycle must be an object, got number",
    );
    refuses(
      raw({ tools: [echoTool, "echo"] }),
      ExtensionContractError,
      "contribution",
      'every member of tools must be an object, got "echo"',
    );
  });

  test("an accepted value is a frozen copy stamped with the extension", () => {
    const value = validate(raw({ tools: [echoTool], prompts: [{ id: "p", text: "t" }] }));
    assert.deepEqual([value.extension, value.tools[0]!.extension, value.prompts[0]!.extension], ["x", "x", "x"]);
    assert.ok(Object.isFrozen(value.prompts[0]));
  });
});

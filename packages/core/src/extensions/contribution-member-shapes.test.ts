// The shape rules of each member of a declared contribution, one at a time: tools, prompt
// fragments, policies and lifecycle hooks. Each refusal names the member and says what was wrong,
// and each value just inside a rule is accepted.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ExtensionContractError, PrivilegeWideningError } from "../errors.js";
import { tool, type Tool } from "../tools/tool.js";
import { echoTool } from "../test-support/helpers.js";
import { raw, refuses, validate } from "../test-support/contribution-shapes.js";
import { contribution } from "./contribution.js";

const fakeTool = (changes: Record<string, unknown>) => ({ ...echoTool, ...changes }) as unknown as Tool;
const withSchema = (inputSchema: unknown) => fakeTool({ definition: { ...echoTool.definition, inputSchema } });

describe("tools", () => {
  const notATool = "is not a tool; build it with tool({ name, description, inputSchema, execute })";
  test("a tool name is checked before anything else about the tool", () => {
    refuses(
      raw({ tools: [fakeTool({ name: "two words" })] }),
      ExtensionContractError,
      "tool:two words",
      "a tool name is 1-64 letters, digits, '_' or '-'",
    );
    refuses(
      raw({ tools: [fakeTool({ name: 42, definition: { ...echoTool.definition, name: 42 } })] }),
      ExtensionContractError,
      "tool:42",
      "a tool name is 1-64 letters, digits, '_' or '-'",
    );
  });

  test("a tool needs its handler, its compiled schema and a definition under its own name", () => {
    refuses(raw({ tools: [fakeTool({ execute: "run" })] }), ExtensionContractError, "tool:echo", notATool);
    refuses(raw({ tools: [fakeTool({ schema: {} })] }), ExtensionContractError, "tool:echo", notATool);
    refuses(raw({ tools: [fakeTool({ schema: undefined })] }), ExtensionContractError, "tool:echo", notATool);
    refuses(
      raw({ tools: [fakeTool({ definition: { ...echoTool.definition, name: "other" } })] }),
      ExtensionContractError,
      "tool:echo",
      notATool,
    );
    refuses(raw({ tools: [fakeTool({ definition: undefined })] }), ExtensionContractError, "tool:echo", notATool);
  });

  test("its input schema describes an object; a schema with no type is one", () => {
    const message = "its input schema must describe an object";
    for (const schema of [undefined, "object", { type: "string" }])
      refuses(raw({ tools: [withSchema(schema)] }), ExtensionContractError, "tool:echo", message);
    for (const schema of [{}, { type: "object" }])
      assert.doesNotThrow(() => validate(raw({ tools: [withSchema(schema)] })));
  });

  test("writes is a list of paths or a function", () => {
    refuses(
      raw({ tools: [fakeTool({ writes: "notes.md" })] }),
      ExtensionContractError,
      "tool:echo",
      "writes must be a list of paths or a function of the input returning one",
    );
    for (const writes of [["notes.md"], () => ["notes.md"]])
      assert.doesNotThrow(() => validate(raw({ tools: [fakeTool({ writes })] })));
  });

  test("permission is allow, ask or deny", () => {
    refuses(
      raw({ tools: [fakeTool({ permission: "always" })] }),
      ExtensionContractError,
      "tool:echo",
      'permission must be allow, ask or deny, got "always"',
    );
    for (const permission of ["allow", "ask", "deny"])
      assert.equal(validate(raw({ tools: [fakeTool({ permission })] })).tools[0]!.permission, permission);
  });

  test("a member stamped with another extension's name is widening", () => {
    const theirs = contribution("trusted", { tools: [echoTool] }).tools[0];
    refuses(
      raw({ tools: [theirs] }),
      PrivilegeWideningError,
      "tool:echo",
      'is attributed to "trusted"; an extension may not contribute on another extension\'s behalf',
    );
  });

  test("a name held by the application or another extension collides, naming the holder", () => {
    const named = (name: string) => tool({ name, description: "", execute: () => "" });
    refuses(
      raw({ tools: [named("app_tool")] }),
      ExtensionContractError,
      "tool:app_tool",
      "collides with the tool registered by the application",
    );
    refuses(
      raw({ tools: [named("their_tool")] }),
      ExtensionContractError,
      "tool:their_tool",
      'collides with the tool registered by extension "other"',
    );
  });
});

describe("prompt fragments", () => {
  const fragment = (changes: Record<string, unknown>) => raw({ prompts: [{ id: "p", text: "t", ...changes }] });
  test("an id is a string of 1-64 safe characters", () => {
    const message = "needs an id of 1-64 letters, digits, '_', '.', ':' or '-'";
    refuses(fragment({ id: 42 }), ExtensionContractError, "prompt:42", message);
    refuses(fragment({ id: "-dash-first" }), ExtensionContractError, "prompt:-dash-first", message);
    refuses(fragment({ id: "a".repeat(65) }), ExtensionContractError, `prompt:${"a".repeat(65)}`, message);
    assert.doesNotThrow(() => validate(fragment({ id: `A9_.:-${"a".repeat(58)}` })));
  });

  test("the operator tier is widening; another unknown tier is a contract error", () => {
    refuses(
      fragment({ tier: "operator" }),
      PrivilegeWideningError,
      "prompt:p",
      "asks for the operator tier; only the agent's own system text is operator instruction",
    );
    refuses(
      fragment({ tier: "system" }),
      ExtensionContractError,
      "prompt:p",
      'tier must be "guidance" or "context", got "system"',
    );
    for (const tier of ["guidance", "context"]) assert.doesNotThrow(() => validate(fragment({ tier })));
  });

  test("order is a finite number", () => {
    refuses(fragment({ order: Infinity }), ExtensionContractError, "prompt:p", "order must be a finite number");
    refuses(fragment({ order: "1" }), ExtensionContractError, "prompt:p", "order must be a finite number");
    assert.doesNotThrow(() => validate(fragment({ order: -3 })));
  });

  test("requiresTool is a tool name", () => {
    for (const requiresTool of [3, "not a name"])
      refuses(fragment({ requiresTool }), ExtensionContractError, "prompt:p", "requiresTool must be a tool name");
    assert.doesNotThrow(() => validate(fragment({ requiresTool: "echo" })));
  });

  test("text is a string within the limit (the limit itself is allowed) or a function", () => {
    assert.doesNotThrow(() => validate(fragment({ text: "x".repeat(10) })));
    refuses(
      fragment({ text: "x".repeat(11) }),
      ExtensionContractError,
      "prompt:p",
      "is 11 characters; the limit is 10 (maxPromptFragmentChars)",
    );
    assert.doesNotThrow(
      () => validate(fragment({ text: () => "x".repeat(50) })),
      "a function's text is cut when asked, not here",
    );
    refuses(
      fragment({ text: 5 }),
      ExtensionContractError,
      "prompt:p",
      "text must be a string or a function returning one",
    );
  });
});

describe("policies and lifecycle hooks", () => {
  const policy = (changes: Record<string, unknown>) =>
    raw({ policies: [{ id: "p", decide: () => "allow", ...changes }] });
  test("a policy needs decide(); its actions are tool names; its timeout is positive", () => {
    refuses(policy({ decide: "allow" }), ExtensionContractError, "policy:p", "needs a decide(request) function");
    for (const actions of ["echo", ["echo", 3]])
      refuses(policy({ actions }), ExtensionContractError, "policy:p", "actions must be an array of tool names");
    assert.doesNotThrow(() => validate(policy({ actions: ["echo", "grep"] })));
    for (const timeoutMs of [0, -1, NaN, Infinity])
      refuses(policy({ timeoutMs }), ExtensionContractError, "policy:p", "timeoutMs must be a positive number");
    assert.doesNotThrow(() => validate(policy({ timeoutMs: 1 })));
  });

  test("a lifecycle hook has a known phase and a run() function; ids are unique per kind", () => {
    const hook = (changes: Record<string, unknown>) => ({ id: "h", phase: "install", run: () => {}, ...changes });
    refuses(
      raw({ lifecycle: [hook({ phase: "boot" })] }),
      ExtensionContractError,
      "lifecycle:h",
      'phase must be "install" or "close", got "boot"',
    );
    refuses(
      raw({ lifecycle: [hook({ run: undefined })] }),
      ExtensionContractError,
      "lifecycle:h",
      "needs a run() function",
    );
    refuses(
      raw({ lifecycle: [hook({ phase: "teardown" })] }),
      ExtensionContractError,
      "lifecycle:h",
      'phase must be "install" or "close", got "teardown" (renamed "close")',
    );
    refuses(
      raw({ lifecycle: [hook({}), hook({ phase: "close" })] }),
      ExtensionContractError,
      "lifecycle:h",
      "declared twice",
    );
    assert.doesNotThrow(
      () =>
        validate(
          raw({
            lifecycle: [hook({})],
            policies: [{ id: "h", decide: () => "allow" }],
            prompts: [{ id: "h", text: "t" }],
          }),
        ),
      "the same id in different kinds",
    );
  });
});

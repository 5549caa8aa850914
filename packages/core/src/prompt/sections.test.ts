import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ToolDefinition } from "../types/provider.js";
import { parseSystemPrompt, renderSystemPrompt, type RenderedFragment } from "./sections.js";

const tools: ToolDefinition[] = [{ name: "search", description: "Search the docs.", inputSchema: { type: "object" } }];
const fragments: RenderedFragment[] = [
  { extension: "docs", id: "guide", tier: "guidance", text: "Search before answering.\n## Not a real heading" },
  { extension: 'we"ird<name>', id: "state", tier: "context", text: "3 results cached." },
];

describe("a composed system prompt splits back into its parts", () => {
  for (const [label, operator, defs, parts] of [
    ["operator, tools and fragments", "You are helpful.", tools, fragments],
    ["fragments without tools", "You are helpful.", [], fragments],
    ["no operator text", "", tools, fragments],
    ["only the operator", "You are helpful.\n## Extensions\nlooks like a header", [], []],
  ] as const) {
    test(label, () => {
      const system = renderSystemPrompt(operator, defs, parts);
      assert.deepEqual(parseSystemPrompt(system, defs), { operator, fragments: parts });
    });
  }

  test("text that was not composed from parts is not split", () => {
    assert.equal(parseSystemPrompt("You are helpful.\n\n## Available tools\n- other: x", tools), undefined);
    const system = renderSystemPrompt("op", tools, fragments);
    assert.equal(parseSystemPrompt(`${system}\ntrailing`, tools), undefined);
  });
});

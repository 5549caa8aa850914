import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent, ScriptedProvider } from "harnessx";
import { SearchExtension } from "./search-extension.js";

test("SearchExtension contributes a tool and guidance and installs a middleware and a hook", async () => {
  const provider = new ScriptedProvider(
    [{ toolCalls: [{ name: "search", input: { query: "  pricing  " } }] }, { text: "Pricing is on page 3." }],
    { recordRequests: true },
  );
  const extension = new SearchExtension();
  await using agent = new Agent({ provider, extensions: [extension] });
  const result = await agent.run("find pricing");
  assert.equal(result.status, "completed");
  assert.match(provider.requests[0].system, /- search: search looks up the product docs collection\./);
  assert.match(provider.requests[0].system, /search covers the product docs\./);
  const toolResult = provider.requests[1].messages.at(-1)!.content[0];
  assert.equal(
    toolResult.type === "tool_result" && toolResult.content,
    "product_docs: pricing",
    "the middleware trimmed the query",
  );
  assert.deepEqual(extension.completed, ["search"]);
  assert.deepEqual(agent.info.extensions, [
    {
      name: "search_feature",
      level: "builtin",
      tools: ["search"],
      prompts: ["scope"],
      policies: [],
      lifecycle: [],
      middleware: ["NormalizeSearch"],
      observers: ["tool_call_end"],
      commands: [],
      templates: [],
      messageTypes: [],
    },
  ]);
});

import assert from "node:assert/strict";
import { Agent } from "../engine/agent.js";
import type { ScriptedReply } from "../providers/scripted.js";
import { countingTool, durableOptions, journalDir, positionalProvider } from "../durable/durable-test-kit.js";

/** Three steps: search c1; pay c2 and search c3 in one turn; the final text. */
export const SCRIPT: ScriptedReply[] = [
  { toolCalls: [{ id: "c1", name: "search", input: { q: "a" } }] },
  {
    toolCalls: [
      { id: "c2", name: "pay", input: { amount: 5 } },
      { id: "c3", name: "search", input: { q: "b" } },
    ],
  },
  { text: "all done" },
];

/** The conversation of the same script run without a crash. */
export async function uninterrupted(): Promise<unknown> {
  const { store, cleanup } = journalDir();
  try {
    const agent = new Agent(
      durableOptions(store(), positionalProvider(SCRIPT), [
        countingTool("search", "safe").tool,
        countingTool("pay", "never").tool,
      ]),
    );
    assert.equal((await agent.run("go")).status, "completed");
    await agent.close();
    return agent.memory.entries;
  } finally {
    cleanup();
  }
}

import { Agent, tool, type ScriptStep, ScriptedProvider, type Extension } from "@harnessx/core";

/** A no-op tool that echoes its input (returns an object so rawResult differs from the text). */
export const echoTool = tool({
  name: "echo",
  description: "Echoes its input",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, additionalProperties: true },
  execute: (input) => ({ echoed: input }),
});

/** A script: `calls` tool calls of `echo`, then a final answer. */
export function echoScript(calls: number, finalText = "done"): ScriptStep[] {
  const steps: ScriptStep[] = [];
  for (let i = 0; i < calls; i++) steps.push({ toolCalls: [{ id: `call_${i}`, name: "echo", input: { text: `step ${i}` } }], usage: { inputTokens: 10, outputTokens: 5 } });
  steps.push({ text: finalText, usage: { inputTokens: 10, outputTokens: 2 } });
  return steps;
}

export function scriptedAgent(steps: ScriptStep[], extensions: Extension[], name = "test-agent"): Agent {
  return new Agent({ provider: new ScriptedProvider(steps), tools: [echoTool], extensions, name, maxIterations: 100_000 });
}

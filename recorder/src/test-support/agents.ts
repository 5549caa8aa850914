import { Agent, tool, type ScriptStep, ScriptedProvider } from "@harnessx/core";
import { defineExtension, type Extension } from "@harnessx/core/extension";
import { ArtifactStore } from "@harnessx/artifacts";
import { FlightRecorderExtension } from "../recording/flight-recorder.js";

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
  for (let i = 0; i < calls; i++)
    steps.push({
      toolCalls: [{ id: `call_${i}`, name: "echo", input: { text: `step ${i}` } }],
      usage: { inputTokens: 10, outputTokens: 5 },
    });
  steps.push({ text: finalText, usage: { inputTokens: 10, outputTokens: 2 } });
  return steps;
}

export function scriptedAgent(steps: ScriptStep[], extensions: Extension[], name = "test-agent"): Agent {
  return new Agent({
    limits: { maxIterations: 100_000 },
    provider: new ScriptedProvider(steps),
    tools: [echoTool],
    extensions,
    name,
  });
}

/** A run whose spill-like extension stores an artifact and emits a CUSTOM event referencing it. */
export async function recordRunWithArtifact(
  dir: string,
): Promise<{ runId: string; recorder: FlightRecorderExtension; sha256: string }> {
  const artifacts = new ArtifactStore(dir);
  let sha256 = "";
  const spill = defineExtension({
    name: "spill-like",
    install(ctx) {
      ctx.registerTool(
        tool({
          name: "big",
          description: "returns a lot",
          execute: async () => {
            const stored = await artifacts.put(`row,value\n${"1,2\n".repeat(10_000)}`);
            sha256 = stored.sha256;
            await ctx.emit(
              "spill",
              { toolName: "big", toolCallId: "c2", bytes: stored.bytes, resultId: "r1", sha256, kind: "csv" },
              { artifacts: [{ sha256, bytes: stored.bytes, mediaType: "text/csv", id: "r1" }] },
            );
            return "spilled";
          },
        }),
      );
    },
  });
  await artifacts.put("unrelated artifact that must not be bundled");
  const recorder = new FlightRecorderExtension({ dir, inlinePayloadBytes: 2048 });
  const provider = new ScriptedProvider([
    {
      toolCalls: [
        { id: "c1", name: "echo", input: { text: "x".repeat(5000) } },
        { id: "c2", name: "big" },
      ],
    },
    { text: "done" },
  ]);
  const agent = new Agent({ provider, tools: [echoTool], extensions: [recorder, spill] });
  const result = await agent.run("go");
  await agent.close();
  return { runId: result.runId, recorder, sha256 };
}

import { Agent, ScriptedProvider } from "@harnessx/core";
import { FlightRecorderExtension } from "../index.js";

/**
 * A recorded run of a parent agent whose one tool call ran a child agent (a subagent), both
 * recorded in `dir`: the fixture of the linked-bundle tests. The child answers "child answer",
 * the parent "done"; `recorder` is the parent's, for `exportIncident`.
 */
export async function recordParentWithChild(dir: string, input = "go"): Promise<{ parentRunId: string; recorder: FlightRecorderExtension }> {
  const child = new Agent({ name: "child", provider: new ScriptedProvider([{ text: "child answer" }]), extensions: [new FlightRecorderExtension({ dir })] });
  const recorder = new FlightRecorderExtension({ dir });
  const parent = new Agent({
    name: "parent",
    provider: new ScriptedProvider([{ toolCalls: [{ name: "ask_child", input: { input: "help" } }] }, { text: "done" }]),
    tools: [child.asTool({ name: "ask_child", description: "asks the child." })],
    extensions: [recorder],
  });
  const { runId } = await parent.run(input);
  await Promise.all([parent.close(), child.close()]);
  return { parentRunId: runId, recorder };
}

import { Agent, ScriptedProvider } from "@harnessx/core";
import { join } from "node:path";
import { FlightRecorderExtension } from "../index.js";
import { membersOf, type TarMember } from "./bundle-surgery.js";

/**
 * A recorded run of a parent agent whose one tool call ran a child agent (a subagent), both
 * recorded in `dir`: the fixture of the linked-bundle tests. The child answers "child answer",
 * the parent "done"; `recorder` is the parent's, for `exportIncident`.
 */
export async function recordParentWithChild(
  dir: string,
  input = "go",
): Promise<{ parentRunId: string; recorder: FlightRecorderExtension }> {
  const child = new Agent({
    name: "child",
    provider: new ScriptedProvider([{ text: "child answer" }]),
    extensions: [new FlightRecorderExtension({ dir })],
  });
  const recorder = new FlightRecorderExtension({ dir });
  const parent = new Agent({
    name: "parent",
    provider: new ScriptedProvider([
      { toolCalls: [{ name: "ask_child", input: { input: "help" } }] },
      { text: "done" },
    ]),
    tools: [child.asTool({ name: "ask_child", description: "asks the child." })],
    extensions: [recorder],
  });
  const { runId } = await parent.run(input);
  await Promise.all([parent.close(), child.close()]);
  return { parentRunId: runId, recorder };
}

/** That recording exported as `dir/good.tar`, and the bundle's members, for surgery. */
export async function exportParentWithChild(
  dir: string,
): Promise<{ parentRunId: string; childRunId: string; members: TarMember[] }> {
  const { parentRunId, recorder } = await recordParentWithChild(dir);
  const exported = await recorder.exportIncident({ runId: parentRunId, reason: "linked", out: join(dir, "good.tar") });
  if (exported.linkedRuns.length !== 1) throw new Error(`expected one linked run, got ${exported.linkedRuns.length}`);
  return { parentRunId, childRunId: exported.linkedRuns[0]!, members: await membersOf(exported.path) };
}

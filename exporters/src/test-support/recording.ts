import { join } from "node:path";
import { FlightRecorderExtension, RecordingStore } from "@harnessx/recorder";
import type { ExtensionLike } from "@harnessx/core";
import { loadRecording, type LoadedRecording } from "../convert/recording-store.js";
import { scenarioAgent } from "./scenario.js";

/** Runs the shared scenario under a real FlightRecorderExtension and reads the recording back. */
export async function recordScenario(extensions: ExtensionLike[] = [], options: { captureContent?: boolean } = {}): Promise<{ recording: LoadedRecording; cleanup: () => void }> {
  let recordings = "";
  const scenario = scenarioAgent(extensions, { extra: (dir) => [new FlightRecorderExtension({ dir: (recordings = join(dir, "recordings")), captureContent: options.captureContent ?? true })] });
  try {
    const result = await scenario.agent.run("How are the regions?");
    await scenario.agent.close();
    return { recording: await loadRecording(new RecordingStore(recordings), result.runId), cleanup: scenario.cleanup };
  } catch (error) {
    scenario.cleanup();
    throw error;
  }
}

import { join } from "node:path";
import { FlightRecorderExtension, RecordingStore } from "@harnessx/recorder";
import type { ExtensionLike } from "@harnessx/core/extension";
import type { MapSpansOptions, TraceEvent } from "@harnessx/core/tracing";
import { scenarioAgent } from "./scenario.js";

/** A recorded run as the converters take it: its hook events and the agent facts they lack. */
export interface LoadedRecording {
  events: TraceEvent[];
  options: MapSpansOptions;
}

/** Reads a run back from a store through the recorder's read path (`RecordingStore.traceEvents`). */
export async function loadRecording(dir: string, runId: string): Promise<LoadedRecording> {
  const { run, events } = await new RecordingStore(dir).traceEvents(runId);
  return { events, options: { agent: { name: run.agent, sessionId: run.sessionId } } };
}

/** Runs the shared scenario under a real FlightRecorderExtension and reads the recording back. */
export async function recordScenario(
  extensions: ExtensionLike[] = [],
  options: { captureContent?: boolean } = {},
): Promise<{ recording: LoadedRecording; cleanup: () => void }> {
  let recordings = "";
  const scenario = scenarioAgent(extensions, {
    extra: (dir) => [
      new FlightRecorderExtension({
        dir: (recordings = join(dir, "recordings")),
        captureContent: options.captureContent ?? true,
      }),
    ],
  });
  try {
    const result = await scenario.agent.run("How are the regions?");
    await scenario.agent.close();
    return { recording: await loadRecording(recordings, result.runId), cleanup: scenario.cleanup };
  } catch (error) {
    scenario.cleanup();
    throw error;
  }
}

import { after } from "node:test";
import type { RecordedEvent } from "../format/event.js";
import { openRecording } from "../read/open-recording.js";
import { tempDir } from "../../../test/support/system.js";

/**
 * A store folder for the calling test file's AI SDK runs, removed once its tests are done, and
 * `readBack`, which reads one of its runs: the run, its events and its spans.
 */
export function aiSdkStore() {
  const store = tempDir("hx-ai-sdk-");
  after(() => store.cleanup());
  async function readBack(runId: string) {
    const recording = await openRecording({ storeDir: store.dir, runId });
    try {
      return { run: recording.run, events: await recording.readEvents(), spans: await recording.spans() };
    } finally {
      await recording.close();
    }
  }
  return { store, readBack };
}

/** The kinds of recorded events, in order. */
export const kinds = (events: RecordedEvent[]) => events.map((e) => e.kind);

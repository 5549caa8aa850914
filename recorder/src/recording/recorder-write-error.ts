import { HarnessError } from "@harnessx/core";

/** Recording stopped because the store could not be written (disk full, read-only, removed). */
export class RecorderWriteError extends HarnessError {
  constructor(dir: string, cause: unknown) {
    super(
      "recorder_write_failed",
      `flight recorder stopped: cannot write to ${dir} (${(cause as Error)?.message ?? String(cause)}); the run continues unrecorded`,
      { cause },
    );
  }
}

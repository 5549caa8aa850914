import { HarnessError } from "@harnessx/core";

/**
 * A `read_result` call the model can fix: unknown id, bad range, refused SQL, a
 * search that ran out of time. The message says what to send instead.
 */
export class ReadResultError extends HarnessError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(`read_result_${code}`, message, options);
  }
}

import { HarnessError } from "@harnessx/core";

/** An exporter could not deliver, convert or configure something; `code` is stable for scripts. */
export class ExporterError extends HarnessError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

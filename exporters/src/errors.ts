import { HarnessError } from "@harnessx/core";

/** An exporter could not deliver, convert or configure something; `code` is stable for scripts. */
export class ExporterError extends HarnessError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Input handed to a converter was not a recording this package can read. */
export class RecordingFormatError extends ExporterError {
  /** 1-based position of the offending event, when known. */
  readonly position?: number;
  constructor(message: string, position?: number) {
    super("recording_format", position === undefined ? message : `event #${position}: ${message}`);
    this.position = position;
  }
}

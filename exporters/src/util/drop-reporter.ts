import type { ExtensionContext } from "@harnessx/core/extension";
import { ExporterError } from "../errors.js";

/**
 * Reports losses of an exporter as `ERROR` events with `source: "exporter"`
 * and the count lost since the previous report, so nothing disappears silently.
 */
export class DropReporter {
  private reported = 0;

  constructor(
    private readonly extension: string,
    private readonly what: string,
  ) {}

  /** `total` is the running count of losses; only the increase is reported. */
  report(ctx: ExtensionContext | undefined, total: number, detail = ""): Promise<void> | undefined {
    const dropped = total - this.reported;
    if (!ctx || dropped <= 0) return undefined;
    this.reported = total;
    const error = new ExporterError(
      "export_dropped",
      `${this.extension}: ${dropped} ${this.what} could not be exported${detail ? ` (${detail})` : ""}`,
    );
    return ctx.reportError(error, { source: "exporter", dropped });
  }
}

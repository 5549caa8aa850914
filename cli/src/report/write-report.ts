import { writeFileAtomically } from "@harnessx/artifacts";
import type { Recording } from "@harnessx/recorder";
import type { CommandContext } from "../context.js";
import { CLI_VERSION } from "../version.js";
import { reportDataFrom } from "./from-run.js";
import { renderReportHtml } from "./html.js";

/** What `writeReport` wrote. */
export interface WrittenReport {
  path: string;
  runId: string;
  bytes: number;
  events: number;
  spans: number;
}

/** Builds a recording's HTML report (with a progress bar over its events) and writes it to `path`, replacing what was there. */
export async function writeReport(ctx: CommandContext, recording: Recording, path: string): Promise<WrittenReport> {
  const progress = ctx.progress("report", "events");
  progress.total(recording.summary.events);
  const data = await reportDataFrom(recording, () => progress.tick());
  progress.stop();
  const html = renderReportHtml({ ...data, producer: `harnessx trace ${CLI_VERSION}` });
  await writeFileAtomically(path, html);
  return {
    path,
    runId: recording.run.runId,
    bytes: Buffer.byteLength(html),
    events: data.events.length,
    spans: data.spans.length,
  };
}

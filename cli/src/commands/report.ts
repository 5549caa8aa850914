import { Command } from "commander";
import type { CommandSpec } from "../command-spec.js";
import { formatBytes } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { writeFileAtomically } from "@harnessx/artifacts";
import { checkWritable } from "../output/write-file.js";
import { reportDataFrom } from "../report/from-run.js";
import { renderReportHtml } from "../report/html.js";
import { openTarget } from "../store/target.js";
import { CLI_VERSION } from "../version.js";

/** `trace report <run|bundle> -o report.html`: one self-contained HTML page. */
export const reportCommand: CommandSpec = {
  define: () =>
    new Command("report")
      .description("write one self-contained HTML report: summary, zoomable timeline, figures, errors, payloads on click")
      .argument("<run>", "run id (or unique prefix), run directory or bundle file")
      .option("-o, --out <file>", "output HTML file", "report.html")
      .option("--force", "replace the output file if it exists"),
  async run(ctx, [text], options) {
    const out = ctx.path(String(options.out));
    await checkWritable(out, Boolean(options.force), String(options.out));
    await using recording = await openTarget(ctx, text);
    const progress = ctx.progress("report", "events");
    progress.total(recording.summary.events);
    const data = await reportDataFrom(recording, () => progress.tick());
    progress.stop();
    const html = renderReportHtml({ ...data, producer: `harnessx trace ${CLI_VERSION}` });
    await writeFileAtomically(out, html);
    const bytes = Buffer.byteLength(html);
    if (ctx.options.json) ctx.printJson({ path: out, runId: recording.run.runId, bytes, events: data.events.length, spans: data.spans.length });
    else ctx.print(terminalSafe(`wrote ${out} (${formatBytes(bytes)}, ${data.events.length} events, ${data.spans.length} spans)`));
  },
};

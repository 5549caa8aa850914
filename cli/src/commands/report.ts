import { Command } from "commander";
import type { CommandSpec } from "../command-spec.js";
import { formatBytes } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { checkWritable } from "../output/write-file.js";
import { writeReport } from "../report/write-report.js";
import { openTarget } from "../store/target.js";

/** `trace report <run|bundle> -o report.html`: one self-contained HTML page. */
export const reportCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("report")
      .description(
        "write one self-contained HTML report: summary, zoomable timeline, figures, errors, payloads on click",
      )
      .argument("<run>", "run id (or unique prefix), last or last-<status>, run directory or bundle file")
      .option("-o, --out <file>", "output HTML file", "report.html")
      .option("--force", "replace the output file if it exists"),
  async run(ctx, [text], options) {
    const out = ctx.path(String(options.out));
    await checkWritable(out, Boolean(options.force), String(options.out));
    await using recording = await openTarget(ctx, text);
    const written = await writeReport(ctx, recording, out);
    if (ctx.options.json) ctx.printJson(written);
    else
      ctx.print(
        terminalSafe(`wrote ${out} (${formatBytes(written.bytes)}, ${written.events} events, ${written.spans} spans)`),
      );
  },
};

import { Command } from "commander";
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Recording } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { browserOpener, launchBrowser } from "../output/browser.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { writeReport } from "../report/write-report.js";
import { openTarget } from "../store/target.js";

/**
 * Where `open` writes a run's report: the store's `reports/` folder for a run of a store (one
 * file per run, rewritten each time, beside the recordings it was made from), a new temporary
 * folder for a bundle (a bundle may come from anywhere; its folder is not ours to write in).
 */
async function reportPath(recording: Recording): Promise<string> {
  const name = `${encodeURIComponent(recording.run.runId)}.html`;
  if (recording.source.kind === "run") {
    const dir = join(recording.source.storeDir, "reports");
    await fs.mkdir(dir, { recursive: true });
    return join(dir, name);
  }
  return join(await fs.mkdtemp(join(tmpdir(), "harnessx-report-")), name);
}

/** `trace open <run>`: the run's HTML report, written and opened in the browser; its path printed either way. */
export const openCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("open")
      .description(
        "write the run's HTML report and open it in the browser; prints the report's path (all there is to do where no browser can be opened)",
      )
      .argument("<run>", "run id (or unique prefix), last or last-<status>, run directory or bundle file")
      .option("--no-browser", "only write the report and print its path"),
  async run(ctx, [text], options) {
    await using recording = await openTarget(ctx, text);
    const written = await writeReport(ctx, recording, await reportPath(recording));
    const opener =
      options.browser === false
        ? { reason: "--no-browser" }
        : browserOpener(written.path, process.platform, ctx.io.env);
    const outcome =
      "command" in opener ? await launchBrowser(opener) : { opened: false as const, reason: opener.reason };
    if (ctx.options.json) {
      ctx.printJson({ ...written, opened: outcome.opened, ...(outcome.opened ? {} : { reason: outcome.reason }) });
      return;
    }
    // The path alone on stdout, so `trace open` works in scripts and where nothing could be opened.
    ctx.print(terminalSafe(written.path));
    ctx.note(
      outcome.opened
        ? `opened in the browser (${"command" in opener ? opener.command : ""})`
        : `not opened: ${outcome.reason}; open the file above in a browser`,
    );
  },
};

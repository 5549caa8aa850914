import { Command, Option } from "commander";
import { checkStore, syncDataset, type DatasetSync } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { CliError, ExitCode, usageError } from "../errors.js";
import { formatBytes, formatDuration } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { explainingS3, s3CliError } from "../store/s3-errors.js";
import { ensureStore } from "../store/target.js";

function positiveInteger(name: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw usageError(`${name} must be a positive integer, got "${value}"`);
    return n;
  };
}

/** One line for people: what was sent, skipped and failed, and how fast. */
function summaryLine(storeDir: string, result: DatasetSync): string {
  const seconds = result.elapsedMs / 1000;
  const rate = seconds > 0 ? `${(result.bytesUploaded / 1e6 / seconds).toFixed(1)} MB/s` : "-";
  return `synced ${storeDir} to ${result.target}: ${result.uploaded} uploaded (${formatBytes(result.bytesUploaded)}), ${result.skipped} skipped, ${result.failed.length} failed in ${formatDuration(result.elapsedMs)} (${rate})`;
}

/** `trace sync [store] s3://bucket/prefix`: the store's ended runs as a Parquet dataset in S3-compatible storage (docs/datasets.md). */
export const syncCommand: CommandSpec = {
  define: () =>
    new Command("sync")
      .description(
        "upload the store's ended runs to S3-compatible storage as a Parquet dataset (new runs only; credentials and endpoint from the AWS environment: AWS_ENDPOINT_URL, AWS_PROFILE, ...)",
      )
      .argument(
        "<args...>",
        "[store] s3://bucket/prefix (the store defaults to --store, HARNESSX_DIR or the nearest .harnessx)",
      )
      .addOption(
        new Option("--concurrency <n>", "uploads in flight at once")
          .default(4)
          .argParser(positiveInteger("--concurrency")),
      ),
  async run(ctx, args, options) {
    if (args.length < 1 || args.length > 2)
      throw usageError("give the target, and optionally the store first: trace sync [store] s3://bucket/prefix");
    const to = args[args.length - 1]!;
    const storeDir = args.length === 2 ? ctx.path(args[0]!) : await ensureStore(ctx);
    if (args.length === 2) await checkStore(storeDir);
    const progress = ctx.progress("sync", "files");
    let result: DatasetSync;
    try {
      // The AWS SDK loads inside, on first use: the other commands never pay for it.
      result = await explainingS3(() =>
        syncDataset({
          storeDir,
          to,
          concurrency: Number(options.concurrency),
          onStart: (files) => progress.total(files),
          onFile: () => progress.tick(),
        }),
      );
    } finally {
      progress.stop();
    }
    const live = result.skippedRuns.filter((r) => r.reason !== "invalid").length;
    if (ctx.options.json) {
      const { stoppedBy, ...summary } = result;
      ctx.printJson({ ...summary, store: storeDir, stoppedBy: stoppedBy?.message ?? null });
    } else {
      ctx.print(terminalSafe(summaryLine(storeDir, result)));
      if (result.exportedRuns > 0) ctx.note(`${result.exportedRuns} run(s) newly exported to ${result.staging}`);
      if (live > 0)
        ctx.note(`${live} run(s) still being recorded (or waiting for retention): the next sync sends them`);
      for (const run of result.skippedRuns.filter((r) => r.reason === "invalid"))
        ctx.note(`${run.runId}: not a readable run, not synced: ${run.problem}`);
      for (const file of result.failed) ctx.note(`failed: ${file.path}: ${file.error}`);
    }
    if (result.stoppedBy) throw s3CliError(result.stoppedBy);
    if (result.failed.length > 0)
      throw new CliError(
        ExitCode.FAILURE,
        "sync_incomplete",
        `${result.failed.length} file(s) not uploaded (listed above); local data is untouched and the next sync tries them again`,
      );
  },
};

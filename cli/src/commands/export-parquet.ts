import { exportDataset, type DatasetExport } from "@harnessx/recorder";
import type { CommandContext } from "../context.js";
import { failure, usageError } from "../errors.js";
import { formatBytes } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { ensureStore, resolveTarget } from "../store/target.js";

/** Formats of `trace export --format`. */
export const EXPORT_FORMATS = ["bundle", "parquet"] as const;

/**
 * `trace export --format parquet <run>|--all --out <dir>`: the runs into a dataset folder
 * (docs/datasets.md) through the recorder's `exportDataset`. Runs still recorded are skipped
 * (an error when it is the one run asked for); runs already exported are not written again.
 */
export async function exportParquet(
  ctx: CommandContext,
  run: string | undefined,
  options: Record<string, unknown>,
): Promise<void> {
  if (typeof options.out !== "string" || options.out.trim() === "")
    throw usageError("--format parquet writes a dataset folder: give it with --out <dir>");
  // A dataset is made to be read across machines: spilled results are always redacted copies there.
  if (options.includeRawSpills)
    throw usageError("--include-raw-spills is for bundles: a dataset always holds redacted copies of spilled results");
  const out = ctx.path(options.out);
  let storeDir: string;
  let runIds: string[] | undefined;
  if (run === undefined) storeDir = await ensureStore(ctx);
  else {
    const target = await resolveTarget(ctx, run, { bundles: false });
    if (target.kind !== "run") return;
    storeDir = target.storeDir;
    runIds = [target.runId];
  }
  const progress = ctx.progress("export", "steps");
  progress.total(1);
  const result = await exportDataset({ storeDir, out, ...(runIds ? { runIds } : {}) });
  progress.tick();
  progress.stop();
  if (ctx.options.json) ctx.printJson(result);
  else printSummary(ctx, result);
  const notEnded = runIds ? result.skipped[0] : undefined;
  if (notEnded)
    throw failure(
      `run ${notEnded.runId} was not exported: ${notEnded.reason === "recording" ? "it is still being recorded; export it once it has ended" : notEnded.reason === "retention_pending" ? "tail retention has not reduced it yet (trace recover applies it)" : notEnded.problem}`,
    );
}

function printSummary(ctx: CommandContext, result: DatasetExport): void {
  const written = result.runs.filter((r) => r.written);
  const files = written.flatMap((r) => r.files);
  const objects = new Map(
    result.runs.flatMap((r) => r.objects.filter((o) => o.written)).map((o) => [o.sha256, o.bytes]),
  );
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0) + [...objects.values()].reduce((sum, b) => sum + b, 0);
  ctx.print(terminalSafe(`dataset ${result.dataset}`));
  ctx.print(
    `  ${written.length} run(s) written: ${files.length} Parquet file(s), ${objects.size} new artifact object(s), ${formatBytes(bytes)}`,
  );
  const unchanged = result.runs.length - written.length;
  if (unchanged) ctx.print(`  ${unchanged} run(s) already exported, unchanged`);
  const missing = result.runs.reduce((sum, r) => sum + r.missingArtifacts.length, 0);
  if (missing)
    ctx.print(
      ctx.colors.yellow(
        `  ${missing} referenced artifact(s) were not in the store (their index rows say present = false)`,
      ),
    );
  for (const skipped of result.skipped) {
    const why =
      skipped.reason === "recording"
        ? "still being recorded"
        : skipped.reason === "retention_pending"
          ? "waiting for tail retention"
          : `unreadable: ${skipped.problem}`;
    ctx.note(terminalSafe(`skipped ${skipped.runId}: ${why}`));
  }
}

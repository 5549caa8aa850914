import { Command } from "commander";
import { compactRuns } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { usageError } from "../errors.js";
import { formatCount } from "../output/format.js";
import { ensureStore } from "../store/target.js";

/** `trace compact`: ended runs into the store's Parquet partitions, which `trace query --all` reads. */
export const compactCommand: CommandSpec = {
  define: () =>
    new Command("compact")
      .description(
        "compact the store's ended runs into Parquet partitions (parts/<table>/date=<day>/), which trace query --all reads",
      )
      .option("--max-runs <n>", "at most this many runs in one compaction (default 10000)"),
  async run(ctx, _args, options) {
    const maxRuns = options.maxRuns === undefined ? undefined : Number(options.maxRuns);
    if (maxRuns !== undefined && !(Number.isInteger(maxRuns) && maxRuns > 0))
      throw usageError(`--max-runs must be a positive integer, got "${options.maxRuns}"`);
    const storeDir = await ensureStore(ctx);
    const progress = ctx.progress("compact", "steps");
    progress.total(5);
    const result = await compactRuns(storeDir, {
      ...(maxRuns !== undefined ? { maxRuns } : {}),
      onStep: () => progress.tick(),
    }).finally(() => progress.stop());
    if (ctx.options.json) {
      ctx.printJson(result);
      return;
    }
    if (!result.done) {
      ctx.note(`process ${result.busyPid} is compacting this store; nothing done`);
      return;
    }
    ctx.print(
      result.runs === 0
        ? "no ended run to compact"
        : `${formatCount(result.runs)} run(s), ${formatCount(result.events)} events compacted into ${result.files.length} file(s)`,
    );
  },
};

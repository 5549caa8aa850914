import { Command } from "commander";
import {
  isProcessAlive,
  lockHolder,
  readRunManifest,
  recover,
  reductionPending,
  runFolders,
  compactCatalog,
  type RecoverResult,
} from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { usageError } from "../errors.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { ensureStore, resolveTarget } from "../store/target.js";

async function deadRuns(storeDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const { dir } of await runFolders(storeDir)) {
    const pid = await lockHolder(dir);
    // An unreadable run is not recovered here: `trace ls` lists it as invalid.
    const run = await readRunManifest(dir).catch(() => undefined);
    // A run that ended but whose process died before its tail retention (retain) reduced it is finished too.
    if (
      (pid !== undefined && !isProcessAlive(pid)) ||
      (pid === undefined && run?.status === "running") ||
      (run !== undefined && (await reductionPending(dir, run)))
    )
      out.push(dir);
  }
  return out;
}

/** `trace recover <run>`: seal a crashed run (dead lock holder) and mark it crashed, through the recorder. */
export const recoverCommand: CommandSpec = {
  define: () =>
    new Command("recover")
      .description("seal a run whose recording process died, and mark it crashed")
      .argument("[run]", "run id (or unique prefix) or run directory")
      .option("--all", "recover every dead run of the store, then rebuild its run catalog from the runs' folders"),
  async run(ctx, args, options) {
    const [text] = args;
    if (!text && !options.all) throw usageError("name a run, or pass --all to recover every dead run");
    const dirs: string[] = [];
    if (options.all) dirs.push(...(await deadRuns(await ensureStore(ctx))));
    else {
      const target = await resolveTarget(ctx, text!, { bundles: false });
      if (target.kind === "run") dirs.push(target.runDir);
    }
    const results: RecoverResult[] = [];
    for (const dir of dirs) results.push(await recover(dir));
    if (options.all) {
      // The catalog may have missed a run (a kill between its run.json and its catalog line): rebuilt from the folders.
      const rebuilt = await compactCatalog(await ensureStore(ctx), { rebuild: true });
      if (!rebuilt.done) ctx.note(`the run catalog was not rebuilt: process ${rebuilt.busyPid} is compacting it`);
    }
    if (ctx.options.json) {
      ctx.printJson(options.all ? results : results[0]);
      return;
    }
    if (results.length === 0) ctx.print("no dead runs to recover");
    for (const r of results) {
      const runId = terminalSafe(r.runId);
      if (r.recovered && r.sealed === 0)
        ctx.print(`${runId}: reduced to its summary by its retention policy (status ${r.status})`);
      else if (r.recovered)
        ctx.print(
          `recovered ${runId}: status ${ctx.colors.red(r.status)}, ${r.sealed} segment(s) sealed, ${r.reduced ? "reduced to its summary by its retention policy" : `${r.events} events`}${r.tornBytes ? `, ${r.tornBytes} torn bytes cut` : ""}`,
        );
      else ctx.print(`${runId} is already sealed (status ${r.status}); nothing to do`);
    }
  },
};

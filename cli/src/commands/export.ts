import { Command, Option } from "commander";
import { exportIncident } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { fewNames, formatBytes } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { checkWritable } from "../output/write-file.js";
import { resolveTarget } from "../store/target.js";
import { usageError } from "../errors.js";
import { EXPORT_FORMATS, exportParquet } from "./export-parquet.js";
import { signedWithLine, userSigningKey } from "../signing/user-keys.js";

/**
 * `trace export <run> [-o FILE] [--reason TEXT] [--include-raw-spills]`: the incident bundle, written by the recorder;
 * `trace export --format parquet <run>|--all --out DIR`: runs into a Parquet dataset (export-parquet.ts).
 */
export const exportCommand: CommandSpec = {
  define: () =>
    new Command("export")
      .description(
        "write the run's incident bundle (tar: manifest, events, referenced artifacts, SHA256SUMS), or runs as a Parquet dataset (--format parquet)",
      )
      .argument("[run]", "run id (or unique prefix) or run directory")
      .addOption(
        new Option(
          "--format <format>",
          "bundle: one run's incident bundle; parquet: runs into a dataset folder (docs/datasets.md)",
        )
          .choices(EXPORT_FORMATS)
          .default("bundle"),
      )
      .option("--all", "with --format parquet: every ended run of the store")
      .option(
        "-o, --out <file>",
        "bundle file (default <store>/incidents/<run>-<time>.tar); with --format parquet, the dataset folder",
      )
      .option("--reason <text>", "why the bundle was made (a ticket, a symptom)", "manual export")
      .option(
        "--include-raw-spills",
        "copy spilled tool results as stored (raw) instead of redacted copies; only for bundles that stay private",
      )
      .option("--force", "replace the output file if it exists"),
  async run(ctx, [text], options) {
    if (options.all && text !== undefined) throw usageError("give a run or --all, not both");
    if (options.format === "parquet") return exportParquet(ctx, text, options);
    if (options.all)
      throw usageError("--all exports to a dataset: add --format parquet --out <dir> (a bundle holds one run)");
    if (text === undefined)
      throw usageError("give the run to export: trace export <run> (or --format parquet --all --out <dir>)");
    const target = await resolveTarget(ctx, text, { bundles: false });
    if (target.kind !== "run") return;
    const out = typeof options.out === "string" ? ctx.path(options.out) : undefined;
    if (out) await checkWritable(out, Boolean(options.force), String(options.out));
    const progress = ctx.progress("export", "steps");
    progress.total(1);
    const includeRawSpills = options.includeRawSpills === true;
    const { key, created } = await userSigningKey(ctx);
    const result = await exportIncident({
      dir: target.storeDir,
      runId: target.runId,
      reason: String(options.reason),
      includeRawSpills,
      signingKey: key,
      ...(out ? { out } : {}),
    });
    progress.tick();
    progress.stop();
    if (ctx.options.json) ctx.printJson({ ...result, keyCreated: created });
    else {
      ctx.print(terminalSafe(`wrote ${result.path}`));
      ctx.print(
        terminalSafe(
          `  run ${result.runId}: ${result.events} events, ${result.artifacts} artifacts, ${formatBytes(result.bytes)}`,
        ),
      );
      ctx.print(terminalSafe(signedWithLine(key, created)));
      if (result.linkedRuns.length)
        ctx.print(
          terminalSafe(`  with ${result.linkedRuns.length} linked subagent run(s): ${result.linkedRuns.join(", ")}`),
        );
      if (result.spills.count) {
        const how = result.spills.raw
          ? ctx.colors.yellow("raw, as stored (--include-raw-spills): do not share this bundle")
          : `redacted copies (${result.spills.redacted} changed by redaction)`;
        ctx.print(`  ${result.spills.count} spilled result(s): ${how}`);
      }
      if (result.unappliedPatterns.length && result.spills.count && !result.spills.raw) {
        ctx.print(
          ctx.colors.yellow(
            terminalSafe(
              `  spilled results were redacted with the default policy, not with the pattern(s) the run names (${fewNames(result.unappliedPatterns)}): a recording's patterns are never run; export from code with your agent's policy (exportIncident({ redactor: agent.redactor }))`,
            ),
          ),
        );
      }
      if (result.missingArtifacts.length)
        ctx.print(
          ctx.colors.yellow(
            `  ${result.missingArtifacts.length} referenced artifact(s) were not in the store (listed in the manifest's missingArtifacts)`,
          ),
        );
      const spills = result.missingSpills.length;
      const payloads = result.missingArtifacts.length - spills;
      if (spills)
        ctx.print(
          ctx.colors.yellow(
            `    ${spills} written by result spilling (ResultSpillExtension): was its store another folder? give it the recorder's (both default to .harnessx, or HARNESSX_DIR)`,
          ),
        );
      if (payloads)
        ctx.print(
          ctx.colors.yellow(
            `    ${payloads} written by the flight recorder (payloads): removed or corrupt in ${terminalSafe(target.storeDir)}`,
          ),
        );
    }
  },
};

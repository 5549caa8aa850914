import { Command } from "commander";
import { openStoreTables, TABLE_NAMES, tableHelp, type Recording } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { usageError } from "../errors.js";
import { columnsFromKeys } from "../output/table.js";
import { runQuery } from "../store/run-query.js";
import { ensureStore, openTarget } from "../store/target.js";
import { openDataset, sinceOption } from "../store/dataset.js";

export const QUERY_HELP = `
Tables (DuckDB SQL; columns as in recorder/README.md):
${TABLE_NAMES.map((table) => tableHelp(table)).join("\n")}
            (in a dataset, artifacts also has object_sha256: the object holding the bytes)

Read-only: SQL may read these tables and nothing else; COPY ... TO, ATTACH, INSTALL, LOAD,
CREATE, SET and reading other files are refused (exit 2) unless --allow-write.

Examples:
  trace query <run> "SELECT name, count(*) FROM spans WHERE kind = 'tool' GROUP BY name"
  trace query --all --csv "SELECT run_id, sum(output_tokens) FROM spans WHERE kind = 'model' GROUP BY 1"
  trace query --dataset ./fleet --since 1d "SELECT host, count(*) FROM runs WHERE status = 'failed' GROUP BY 1"`;

/** `trace query <run|--all> "<sql>"`: DuckDB SQL over the recorder's tables. */
export const queryCommand: CommandSpec = {
  define: () =>
    new Command("query")
      .description(
        "DuckDB SQL over runs, events, spans and artifacts of a run, a bundle, the whole store (--all) or a Parquet dataset (--dataset)",
      )
      .argument("<args...>", "<run> <sql>, or <sql> with --all or --dataset")
      .option("--all", "query every run of the store")
      .option(
        "--dataset <dir|s3://bucket/prefix>",
        "query a dataset: a folder written by trace export --format parquet, or one trace sync uploaded (docs/datasets.md)",
      )
      .option(
        "--since <when>",
        "with --dataset: only runs started since a duration ago (30m, 2h, 7d) or an ISO date, by whole UTC days (older date partitions are not read)",
      )
      .option("--csv", "CSV output")
      .option(
        "--allow-write",
        "let the SQL write or read other files, ATTACH, INSTALL, create tables (read-only by default)",
      )
      .addHelpText("after", QUERY_HELP),
  async run(ctx, args, options) {
    const dataset = typeof options.dataset === "string" ? options.dataset : undefined;
    if (options.all && dataset !== undefined)
      throw usageError("give --all (the store) or --dataset (a dataset), not both");
    if (options.since !== undefined && dataset === undefined)
      throw usageError("--since filters a dataset's date partitions: use it with --dataset");
    const whole = options.all || dataset !== undefined;
    const expected = whole ? 1 : 2;
    if (args.length !== expected) {
      throw usageError(
        whole
          ? `with ${options.all ? "--all" : "--dataset"} give only the SQL: trace query ${options.all ? "--all" : "--dataset <dir>"} "<sql>"`
          : 'give a run and the SQL: trace query <run> "<sql>" (or --all "<sql>")',
      );
    }
    const sql = args[expected - 1];
    if (sql.trim() === "") throw usageError("the SQL is empty");
    const since = sinceOption(options.since);
    const storeDir = options.all ? await ensureStore(ctx) : undefined;
    await using recording: Recording | undefined = !whole ? await openTarget(ctx, args[0]) : undefined;
    const progress = ctx.progress("query", "steps");
    progress.total(2);
    const access = { allowWrite: Boolean(options.allowWrite) };
    const readOnly = !access.allowWrite;
    // The spans table is the costly one to open on a big run: built only when the SQL names it
    // (any mention counts; SQL naming a table that was left out would fail, never answer wrong).
    const spans = /spans/i.test(sql);
    // One run or bundle through the read model; --all: the whole store, read by DuckDB from its segment files; --dataset: views over its Parquet files.
    const db = recording
      ? await recording.database({ readOnly, spans })
      : dataset !== undefined
        ? await openDataset(ctx, dataset, { readOnly, ...(since !== undefined ? { since } : {}) })
        : await openStoreTables(storeDir!, { readOnly, spans });
    progress.tick();
    try {
      const result = await runQuery(db, sql, access);
      progress.tick();
      progress.stop();
      if (!ctx.options.json && !options.csv && result.rows.length === 0) ctx.note("(no rows)");
      ctx.printRows(result.rows, columnsFromKeys(result.columns), { csv: Boolean(options.csv) });
    } finally {
      progress.stop();
      db.close();
    }
  },
};

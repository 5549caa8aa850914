import { Command } from "commander";
import { openSegmentTables, runFolders, type Recording } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { usageError } from "../errors.js";
import { columnsFromKeys } from "../output/table.js";
import { runQuery } from "../store/run-query.js";
import { ensureStore, openTarget } from "../store/target.js";

export const QUERY_HELP = `
Tables (DuckDB SQL; columns as in recorder/README.md):
  events    run_id, seq, ts, ts_ms, kind, span_id, parent_span_id, tool_name, tool_call_id,
            attrs (JSON), payload (JSON), payload_sha256, payload_bytes, payload_preview, redacted
  spans     run_id, span_id, parent_span_id, kind (run|model|tool), name, start_ts, end_ts,
            duration_ms, status (ok|error|open), input_tokens, output_tokens, cost_usd, events, attrs (JSON)
  artifacts sha256, run_id, seq, kind, bytes, stored_bytes, present, preview

Read-only: SQL may read these tables and nothing else; COPY ... TO, ATTACH, INSTALL, LOAD,
CREATE, SET and reading other files are refused (exit 2) unless --allow-write.

Examples:
  trace query <run> "SELECT name, count(*) FROM spans WHERE kind = 'tool' GROUP BY name"
  trace query --all --csv "SELECT run_id, sum(output_tokens) FROM spans WHERE kind = 'model' GROUP BY 1"`;

/** `trace query <run|--all> "<sql>"`: DuckDB SQL over the recorder's tables. */
export const queryCommand: CommandSpec = {
  define: () =>
    new Command("query")
      .description("DuckDB SQL over events, spans and artifacts of a run, a bundle, or the whole store (--all)")
      .argument("<args...>", "<run> <sql>, or <sql> with --all")
      .option("--all", "query every run of the store")
      .option("--csv", "CSV output")
      .option("--allow-write", "let the SQL write or read other files, ATTACH, INSTALL, create tables (read-only by default)")
      .addHelpText("after", QUERY_HELP),
  async run(ctx, args, options) {
    const expected = options.all ? 1 : 2;
    if (args.length !== expected) {
      throw usageError(options.all ? 'with --all give only the SQL: trace query --all "<sql>"' : 'give a run and the SQL: trace query <run> "<sql>" (or --all "<sql>")');
    }
    const sql = args[expected - 1];
    if (sql.trim() === "") throw usageError("the SQL is empty");
    const storeDir = options.all ? await ensureStore(ctx) : undefined;
    await using recording: Recording | undefined = storeDir === undefined ? await openTarget(ctx, args[0]) : undefined;
    const progress = ctx.progress("query", "steps");
    progress.total(2);
    const access = { allowWrite: Boolean(options.allowWrite) };
    const readOnly = !access.allowWrite;
    // The spans table is the costly one to open on a big run: built only when the SQL names it
    // (any mention counts; SQL naming a table that was left out would fail, never answer wrong).
    const spans = /spans/i.test(sql);
    // One run or bundle through the read model; --all: the whole store, read by DuckDB from its segment files.
    const db = recording ? await recording.database({ readOnly, spans }) : await openSegmentTables(storeDir!, (await runFolders(storeDir!)).map((r) => r.dir), { readOnly, spans });
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

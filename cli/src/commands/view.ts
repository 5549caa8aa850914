import { Command, Argument } from "commander";
import type { CommandSpec } from "../command-spec.js";
import { columnsFromKeys } from "../output/table.js";
import { runQuery } from "../store/run-query.js";
import { openTarget } from "../store/target.js";

/** The fixed views of `trace view`: SQL over the recorder's tables. */
export const VIEWS = {
  tools: `SELECT json_extract_string(attrs, '$."gen_ai.tool.name"') AS tool, count(*) AS calls, count(*) FILTER (WHERE status = 'error') AS errors,
            round(quantile_cont(duration_ms, 0.5), 1) AS p50_ms, round(quantile_cont(duration_ms, 0.95), 1) AS p95_ms,
            round(max(duration_ms), 1) AS max_ms, round(sum(duration_ms), 1) AS total_ms
          FROM spans WHERE kind = 'tool' GROUP BY tool ORDER BY calls DESC, tool`,
  models: `SELECT json_extract_string(attrs, '$."gen_ai.request.model"') AS model, count(*) AS calls, count(*) FILTER (WHERE status = 'error') AS errors,
             sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
             round(quantile_cont(duration_ms, 0.5), 1) AS p50_ms, round(max(duration_ms), 1) AS max_ms
           FROM spans WHERE kind = 'model' GROUP BY model ORDER BY calls DESC, model`,
  errors: `SELECT seq, ts, kind, coalesce((attrs->>'source'), '') AS source, coalesce(tool_name, '') AS tool,
             coalesce((attrs->>'errorMessage'), CASE WHEN kind = 'tool_call_end' THEN concat_ws(': ', (attrs->>'outcome'), (payload->'result'->>'content')) END, (attrs->>'status'), '') AS message
           FROM events
           WHERE kind = 'error' OR kind = 'recorder.dropped'
              OR (kind = 'tool_call_end' AND ((attrs->>'outcome') <> 'executed' OR (attrs->>'isError') = 'true'))
              OR (kind = 'agent_end' AND (attrs->>'status') = 'failed')
           ORDER BY run_id, seq`,
  spills: `SELECT seq, ts, (payload->'data'->>'toolName') AS tool, TRY_CAST((payload->'data'->>'bytes') AS BIGINT) AS bytes,
             (payload->'data'->>'kind') AS kind, (payload->'data'->>'resultId') AS result_id
           FROM events WHERE kind = 'custom' AND (attrs->>'name') = 'spill' ORDER BY run_id, seq`,
  retries: `SELECT seq, ts, (attrs->>'target') AS target, TRY_CAST((attrs->>'attempt') AS INTEGER) AS attempt,
              TRY_CAST((attrs->>'delayMs') AS DOUBLE) AS delay_ms, coalesce(tool_name, '') AS tool, (attrs->>'errorMessage') AS error
            FROM events WHERE kind = 'retry' ORDER BY run_id, seq`,
} as const;

/** `trace view <run> <tools|models|errors|spills|retries>`: fixed tables. */
export const viewCommand: CommandSpec<[run: string, view: string]> = {
  define: () =>
    new Command("view")
      .description("fixed tables: tools (latency, errors), models (tokens), errors, spills, retries")
      .argument("<run>", "run id (or unique prefix), run directory or bundle file")
      .addArgument(new Argument("<view>", "which table").choices(Object.keys(VIEWS)))
      .option("--csv", "CSV output"),
  async run(ctx, [text, view], options) {
    await using recording = await openTarget(ctx, text);
    const db = await recording.database({ readOnly: true });
    try {
      const result = await runQuery(db, VIEWS[view as keyof typeof VIEWS]);
      if (!ctx.options.json && !options.csv && result.rows.length === 0) ctx.note(`no ${view} in this run`);
      else ctx.printRows(result.rows, columnsFromKeys(result.columns), { csv: Boolean(options.csv) });
    } finally {
      db.close();
    }
  },
};

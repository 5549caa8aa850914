import type { DuckDBConnection } from "@duckdb/node-api";
import type { RunManifest } from "../format/event.js";
import { costOfModels } from "../format/run-rollup.js";
import { appendRow, bigValue, jsonValue, msValue } from "./recording-database.js";

/**
 * The `runs` table: one row per run, from its `run.json` (a run reduced by tail retention keeps
 * its row). Columns are documented in recorder/README.md and docs/datasets.md; the dataset's
 * `runs` files hold the same columns.
 */
export const RUNS_TABLE = `CREATE TABLE runs (
  run_id VARCHAR, trace_id VARCHAR, agent VARCHAR, framework VARCHAR, session_id VARCHAR, status VARCHAR, detail VARCHAR,
  started_at TIMESTAMP_MS, ended_at TIMESTAMP_MS, duration_ms BIGINT, host VARCHAR, service VARCHAR, provider VARCHAR, models JSON,
  events BIGINT, model_calls BIGINT, tool_calls BIGINT, errors BIGINT, dropped BIGINT, input_tokens BIGINT, output_tokens BIGINT,
  cost_usd DOUBLE, unpriced_calls BIGINT, error_name VARCHAR, error_message VARCHAR, error_code VARCHAR, recorder_version VARCHAR
)`;

/** A run's row of the `runs` table, in column order. */
function runValues(run: RunManifest) {
  const summary = run.summary;
  const cost = run.rollup ? costOfModels(Object.values(run.rollup.models)) : null;
  return [
    run.runId,
    run.traceId ?? null,
    run.agent,
    run.framework ?? null,
    run.sessionId,
    run.status,
    run.detail === "summary" ? "summary" : "full",
    msValue(run.startedAt),
    msValue(run.endedAt),
    bigValue(run.endedAt === null ? null : run.endedAt - run.startedAt),
    run.hostname ?? null,
    run.service ?? null,
    run.provider ?? null,
    jsonValue(run.models),
    bigValue(summary?.events),
    bigValue(summary?.modelCalls),
    bigValue(summary?.toolCalls),
    bigValue(summary?.errors),
    bigValue(summary?.dropped),
    bigValue(summary?.inputTokens),
    bigValue(summary?.outputTokens),
    cost?.usd ?? null,
    bigValue(cost?.unpricedCalls),
    run.error?.name ?? null,
    run.error?.message ?? null,
    run.error?.code ?? null,
    run.producer.recorder,
  ];
}

/** Creates the `runs` table on the connection, one row per manifest. */
export async function createRunsTable(connection: DuckDBConnection, runs: Iterable<RunManifest>): Promise<void> {
  await connection.run(RUNS_TABLE);
  const appender = await connection.createAppender("runs");
  for (const run of runs) appendRow(appender, runValues(run));
  appender.closeSync();
}

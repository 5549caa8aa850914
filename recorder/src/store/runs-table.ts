import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import type { RunManifest } from "../format/event.js";
import { costOfModels } from "../format/run-rollup.js";
import { appendRow, bigValue, jsonValue, msValue } from "./duckdb-values.js";
import { loadedDuckdb } from "./duckdb.js";
import { createTableSql, declaredColumns, type ColumnName } from "../format/table-columns.js";

/**
 * A run's row of the `runs` table (a run reduced by tail retention keeps its row); recorder/README.md
 * and docs/datasets.md say what each column holds, `TABLE_COLUMNS.runs` their order and types.
 */
function runRow(run: RunManifest): Record<ColumnName<"runs">, DuckDBValue> {
  const summary = run.summary;
  const cost = run.rollup ? costOfModels(Object.values(run.rollup.models)) : null;
  return {
    run_id: run.runId,
    trace_id: run.traceId ?? null,
    agent: run.agent,
    framework: run.framework ?? null,
    session_id: run.sessionId,
    status: run.status,
    detail: run.detail === "summary" ? "summary" : "full",
    started_at: msValue(run.startedAt),
    ended_at: msValue(run.endedAt),
    duration_ms: bigValue(run.endedAt === null ? null : run.endedAt - run.startedAt),
    host: run.hostname ?? null,
    service: run.service ?? null,
    provider: run.provider ?? null,
    models: jsonValue(run.models),
    events: bigValue(summary?.events),
    model_calls: bigValue(summary?.modelCalls),
    tool_calls: bigValue(summary?.toolCalls),
    errors: bigValue(summary?.errors),
    dropped: bigValue(summary?.dropped),
    input_tokens: bigValue(summary?.inputTokens),
    output_tokens: bigValue(summary?.outputTokens),
    cost_usd: cost?.usd ?? null,
    unpriced_calls: bigValue(cost?.unpricedCalls),
    error_name: run.error?.name ?? null,
    error_message: run.error?.message ?? null,
    error_code: run.error?.code ?? null,
    recorder_version: run.producer.recorder,
    metadata: run.metadata ? jsonValue(run.metadata) : null,
    tags: run.tags ? loadedDuckdb().listValue(run.tags) : null,
  };
}

/** Creates the `runs` table on the connection, one row per manifest. */
export async function createRunsTable(connection: DuckDBConnection, runs: Iterable<RunManifest>): Promise<void> {
  await connection.run(createTableSql("runs"));
  const appender = await connection.createAppender("runs");
  for (const run of runs) {
    const row = runRow(run);
    appendRow(
      appender,
      declaredColumns("runs").map((c) => row[c.name]),
    );
  }
  appender.closeSync();
}

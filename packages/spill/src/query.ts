import { sha256Hex } from "@harnessx/artifacts";
import type { SandboxExecData } from "@harnessx/core/extension";
import { ReadResultError } from "./errors.js";
import type { ResolvedLimits } from "./options.js";
import type { ResultTable } from "./result-table.js";
import type { QueryAnswer } from "./sandbox-protocol.js";

/** Error codes of statements the sandbox refused (the others ran and failed). */
const REFUSALS = new Set(["bad_sql", "sql_refused", "timeout", "too_large"]);

/** What running one statement needs besides its table. */
export interface QueryRun {
  limits: ResolvedLimits;
  /** Told of every statement, whether it ran, failed or was refused. */
  onStatement?: (data: SandboxExecData) => Promise<void> | void;
  /** Loads the table again (a statement that overran a limit costs the table its process). */
  reload(): Promise<unknown>;
}

/**
 * The `query` op: runs one SQL statement on a result's table and answers with its rows as JSON
 * within `maxOutputChars` (the column list dropped first when it does not fit).
 */
export async function answerQuery(table: ResultTable, sql: string, run: QueryRun): Promise<string> {
  const max = run.limits.maxOutputChars;
  let answer: QueryAnswer;
  const started = performance.now();
  const report = (rows: number, code?: string) =>
    run.onStatement?.({
      engine: "duckdb",
      statementSha256: sha256Hex(sql),
      tool: "read_result",
      rows,
      durationMs: performance.now() - started,
      refused: code !== undefined && REFUSALS.has(code),
      ...(code ? { code } : {}),
    });
  try {
    answer = await table.query(sql, {
      timeoutMs: run.limits.queryTimeoutMs,
      maxRows: run.limits.maxRows,
      maxChars: Math.floor(max * 0.8),
    });
  } catch (error) {
    await report(0, String((error as { code?: unknown }).code ?? "failed").replace(/^read_result_/, ""));
    // The query cost the table its process: load it again now, while the model reads the refusal.
    if (!table.alive) run.reload().catch(() => undefined);
    throw error;
  }
  await report(answer.rows.length);
  const note = answer.note ? { note: answer.note } : {};
  const full = JSON.stringify({ columns: answer.columns, rowCount: answer.rows.length, rows: answer.rows, ...note });
  if (full.length <= max) return full;
  const bare = JSON.stringify({ rowCount: answer.rows.length, rows: answer.rows, ...note });
  if (bare.length <= max) return bare;
  throw new ReadResultError(
    "too_wide",
    `the answer has ${answer.columns.length} columns, too many to show within ${max} characters. Select fewer columns.`,
  );
}

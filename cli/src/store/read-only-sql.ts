import type { DuckDBConnection, DuckDBExtractedStatements, DuckDBPreparedStatement } from "@duckdb/node-api";
import { CliError, ExitCode, oneLine } from "../errors.js";

/** First keywords of statements that change something: refused even when they fail to bind. */
const WRITING_VERB =
  /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*(delete|update|insert|merge|create|drop|alter|truncate|copy|attach|detach|install|load|set|reset|export|import|call|vacuum|checkpoint|use)\b/i;

function refused(reason: string): CliError {
  return new CliError(
    ExitCode.USAGE,
    "query_read_only",
    `trace query is read-only: ${reason}; pass --allow-write to run it`,
  );
}

/**
 * Refuses SQL that does more than read the loaded tables, before any of it runs: each statement
 * is prepared (not executed) to learn its type. The connection is also locked by DuckDB's own
 * settings (`lockToReading`); this check names the problem instead of a permission error.
 * A statement that does not bind is judged by its first keyword (DuckDB refuses, say, a DELETE
 * from a view while binding, before its type is known); one that does not parse is left for
 * DuckDB to report when it runs.
 */
export async function assertReadOnly(connection: DuckDBConnection, sql: string): Promise<void> {
  // Loaded with the database it checks (a command that runs no SQL does not load DuckDB).
  const { StatementType } = await import("@duckdb/node-api");
  /** Statements that only read: what `trace query` runs without --allow-write. */
  const reading = new Set([StatementType.SELECT, StatementType.EXPLAIN]);
  let extracted: DuckDBExtractedStatements;
  try {
    extracted = await connection.extractStatements(sql);
  } catch {
    return;
  }
  for (let i = 0; i < extracted.count; i++) {
    let prepared: DuckDBPreparedStatement;
    try {
      prepared = await extracted.prepare(i);
    } catch (error) {
      // Binding a statement that reaches a file fails on the locked connection: say why.
      const message = oneLine((error as Error).message);
      if (/^Permission Error/.test(message)) throw refused(`it reaches files outside the recording (${message})`);
      const verb = WRITING_VERB.exec(sql.split(";")[i] ?? "")?.[1];
      if (verb) throw refused(`statement ${i + 1} is ${verb.toUpperCase()}, not a query (SELECT, EXPLAIN)`);
      return;
    }
    const type = prepared.statementType;
    prepared.destroySync();
    if (!reading.has(type))
      throw refused(
        `statement ${i + 1} is ${StatementType[type] ?? "of an unknown type"}, not a query (SELECT, EXPLAIN)`,
      );
  }
}

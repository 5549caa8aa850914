// Runs one model-written query inside the query process: DuckDB must parse it as exactly one
// SELECT, the whole of it (prepare, execution, shaping) is interrupted at the time limit, and rows
// are streamed a chunk at a time and shaped only until a cap is reached.
import type {
  DuckDBConnection,
  DuckDBExtractedStatements,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBTypeId as TypeId,
} from "@duckdb/node-api";
import type { JsonValue } from "@harnessx/core/extension";
import { duckdb } from "./duckdb.js";
import { timeoutMessage, type QueryAnswer, type QueryLimits } from "./sandbox-protocol.js";

/** A refusal the model can fix; `code` becomes the `read_result_<code>` error code. */
export class QueryRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const { DuckDBTypeId, JsonDuckDBValueConverter, StatementType } = duckdb;
const WIDE_INTEGERS = new Set<TypeId>([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

export async function runGuardedQuery(
  connection: DuckDBConnection,
  sql: string,
  limits: QueryLimits,
): Promise<QueryAnswer> {
  const deadline = Date.now() + limits.timeoutMs;
  let interrupted = false;
  // DuckDB works on libuv threads, so this timer fires even while it folds constants in prepare.
  const timer = setTimeout(() => {
    interrupted = true;
    connection.interrupt();
  }, limits.timeoutMs);
  let prepared: DuckDBPreparedStatement | undefined;
  try {
    prepared = await prepareSelect(connection, sql);
    return await shapeAnswer(await prepared.stream(), limits, deadline);
  } catch (error) {
    if (interrupted || Date.now() >= deadline) throw new QueryRefusal("timeout", timeoutMessage(limits.timeoutMs));
    if (error instanceof QueryRefusal) throw error;
    throw new QueryRefusal(
      "sql_failed",
      `the query failed: ${firstLine(error)}. Fix the SQL (one SELECT over table "result") and try again.`,
    );
  } finally {
    clearTimeout(timer);
    prepared?.destroySync();
  }
}

async function prepareSelect(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  if (/^[\s;]*$/.test(sql))
    throw new QueryRefusal(
      "bad_sql",
      'sql is empty: send one SELECT over table "result", e.g. SELECT count(*) FROM result.',
    );
  let extracted: DuckDBExtractedStatements;
  try {
    extracted = await connection.extractStatements(sql);
  } catch (error) {
    throw new QueryRefusal(
      "bad_sql",
      `the SQL does not parse: ${firstLine(error)}. Send one SELECT over table "result".`,
    );
  }
  if (extracted.count !== 1) {
    throw new QueryRefusal(
      "bad_sql",
      `send exactly one SQL statement; got ${extracted.count}. Remove the extra statements (no ";" between statements).`,
    );
  }
  let prepared: DuckDBPreparedStatement;
  try {
    prepared = await extracted.prepare(0);
  } catch (error) {
    throw new QueryRefusal(
      "sql_refused",
      `the query was refused: ${firstLine(error)}. Only table "result" can be read; files, network, extensions and settings are off.`,
    );
  }
  if (prepared.statementType !== StatementType.SELECT) {
    const type = StatementType[prepared.statementType] ?? String(prepared.statementType);
    prepared.destroySync();
    throw new QueryRefusal(
      "sql_refused",
      `only a SELECT is allowed, this is a ${type} statement. Read table "result" with SELECT (WITH, FROM-first and VALUES forms are fine).`,
    );
  }
  return prepared;
}

/**
 * Converts rows one at a time and stops at the first cap, so a result with millions of rows or
 * huge values is never turned into JavaScript whole. One extra row is read to know there are more.
 */
async function shapeAnswer(result: DuckDBResult, limits: QueryLimits, deadline: number): Promise<QueryAnswer> {
  const names = result.deduplicatedColumnNames();
  const columns = names.map((name, i) => ({ name, type: result.columnType(i).toString() }));
  const wide = names.map((_, i) => WIDE_INTEGERS.has(result.columnTypeId(i)));
  const rows: Array<Record<string, JsonValue>> = [];
  let used = 0;
  let cutBySize = false;
  let more = false;
  reading: for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (let r = 0; r < chunk.rowCount; r++) {
      if (rows.length === limits.maxRows) {
        more = true;
        break reading;
      }
      if (Date.now() >= deadline) throw new QueryRefusal("timeout", timeoutMessage(limits.timeoutMs));
      const values = chunk.convertRowValues(r, JsonDuckDBValueConverter) as JsonValue[];
      const row: Record<string, JsonValue> = {};
      names.forEach((name, i) => {
        const v = values[i]!;
        row[name] = wide[i] && typeof v === "string" && Number.isSafeInteger(Number(v)) ? Number(v) : v;
      });
      const budget = limits.maxChars - used;
      // A single giant string is measured by its length, not copied again by JSON.stringify.
      const size = values.some((v) => typeof v === "string" && v.length > budget)
        ? Infinity
        : JSON.stringify(row).length + 1;
      if (size > budget) {
        cutBySize = true;
        break reading;
      }
      rows.push(row);
      used += size;
    }
  }
  let note: string | undefined;
  if (cutBySize && rows.length === 0) {
    throw new QueryRefusal(
      "too_large",
      `the first row alone is over the ${limits.maxChars}-character answer limit. Select fewer columns or shorten long values (e.g. left(col, 200), length(col)).`,
    );
  }
  if (cutBySize)
    note = `output cut at ${rows.length} rows to stay under ${limits.maxChars} characters; select fewer columns, aggregate, or page with LIMIT/OFFSET.`;
  else if (more)
    note = `only the first ${limits.maxRows} rows are shown; aggregate, filter, or page with LIMIT ${limits.maxRows} OFFSET ${limits.maxRows}.`;
  return { columns, rows, ...(note ? { note } : {}) };
}

export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? "").slice(0, 400);
}

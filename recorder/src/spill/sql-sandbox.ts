import { DuckDBInstance, DuckDBTypeId, StatementType, type DuckDBConnection, type DuckDBPreparedStatement } from "@duckdb/node-api";
import type { JsonValue } from "@harnessx/core";
import { ReadResultError } from "./errors.js";

export interface ColumnInfo {
  name: string;
  type: string;
}

export interface QueryLimits {
  timeoutMs: number;
  maxRows: number;
  /** Characters of JSON rows returned at most. */
  maxChars: number;
}

export interface QueryAnswer {
  columns: ColumnInfo[];
  rows: Array<Record<string, JsonValue>>;
  /** Set when rows were left out (row or size cap); says how to get the rest. */
  note?: string;
}

/**
 * Settings applied after trusted code has loaded the table, then locked:
 * queries cannot read or write files, reach the network, load extensions or undo any of it.
 */
const LOCKDOWN = [
  "SET enable_external_access = false",
  "SET autoload_known_extensions = false",
  "SET autoinstall_known_extensions = false",
  "SET allow_community_extensions = false",
  "SET threads = 1",
];

const WIDE_INTEGERS = new Set<DuckDBTypeId>([DuckDBTypeId.BIGINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT]);

/**
 * One in-memory DuckDB database holding table `result`, locked down for model-written SQL:
 * exactly one statement, which DuckDB itself must parse as a SELECT, interrupted at a time limit.
 */
export class SqlSandbox {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /**
   * Builds the database with trusted SQL (`load` reads the source file), then locks it.
   * `tempDir` is where DuckDB may swap when a query outgrows `memoryLimit`.
   */
  static async create(load: string, options: { tempDir: string; memoryLimit: string }): Promise<SqlSandbox> {
    const instance = await DuckDBInstance.create(":memory:", {
      autoload_known_extensions: "false",
      autoinstall_known_extensions: "false",
      allow_community_extensions: "false",
      temp_directory: options.tempDir,
    });
    const connection = await instance.connect();
    const sandbox = new SqlSandbox(instance, connection);
    try {
      await connection.run(load);
      for (const statement of LOCKDOWN) await connection.run(statement);
      await connection.run(`SET memory_limit = '${options.memoryLimit}'`);
      await connection.run("SET lock_configuration = true");
    } catch (error) {
      sandbox.close();
      throw error;
    }
    return sandbox;
  }

  /** Runs trusted SQL (describe, counts); not for model input. */
  async trusted(sql: string): Promise<JsonValue[][]> {
    return this.exclusive(async () => (await this.connection.runAndReadAll(sql)).getRowsJson() as JsonValue[][]);
  }

  /** Runs the model's SQL under the sandbox rules; every refusal is a ReadResultError saying what to send. */
  async query(sql: string, limits: QueryLimits): Promise<QueryAnswer> {
    return this.exclusive(async () => {
      const prepared = await this.prepareSelect(sql);
      let interrupted = false;
      const timer = setTimeout(() => {
        interrupted = true;
        this.connection.interrupt();
      }, limits.timeoutMs);
      try {
        const reader = await prepared.streamAndReadUntil(limits.maxRows + 1);
        return shapeAnswer(reader, limits);
      } catch (error) {
        if (interrupted) {
          throw new ReadResultError("timeout", `the query was stopped after ${limits.timeoutMs} ms (time limit). Make it cheaper: filter with WHERE, aggregate, add LIMIT, or avoid unbounded recursion.`);
        }
        throw new ReadResultError("sql_failed", `the query failed: ${firstLine(error)}. Fix the SQL (one SELECT over table "result") and try again.`, { cause: error });
      } finally {
        clearTimeout(timer);
        prepared.destroySync();
      }
    });
  }

  private async prepareSelect(sql: string): Promise<DuckDBPreparedStatement> {
    if (sql.trim() === "" || /^[\s;]*$/.test(sql)) throw new ReadResultError("bad_sql", 'sql is empty: send one SELECT over table "result", e.g. SELECT count(*) FROM result.');
    let extracted;
    try {
      extracted = await this.connection.extractStatements(sql);
    } catch (error) {
      throw new ReadResultError("bad_sql", `the SQL does not parse: ${firstLine(error)}. Send one SELECT over table "result".`, { cause: error });
    }
    if (extracted.count !== 1) {
      throw new ReadResultError("bad_sql", `send exactly one SQL statement; got ${extracted.count}. Remove the extra statements (no ";" between statements).`);
    }
    let prepared: DuckDBPreparedStatement;
    try {
      prepared = await extracted.prepare(0);
    } catch (error) {
      throw new ReadResultError("sql_refused", `the query was refused: ${firstLine(error)}. Only table "result" can be read; files, network, extensions and settings are off.`, { cause: error });
    }
    if (prepared.statementType !== StatementType.SELECT) {
      const type = StatementType[prepared.statementType] ?? String(prepared.statementType);
      prepared.destroySync();
      throw new ReadResultError("sql_refused", `only a SELECT is allowed, this is a ${type} statement. Read table "result" with SELECT (WITH, FROM-first and VALUES forms are fine).`);
    }
    return prepared;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new ReadResultError("closed", "the result database was closed; call read_result again"));
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].slice(0, 400);
}

type Reader = Awaited<ReturnType<DuckDBPreparedStatement["streamAndReadUntil"]>>;

function shapeAnswer(reader: Reader, limits: QueryLimits): QueryAnswer {
  const names = reader.deduplicatedColumnNames();
  const columns = names.map((name, i) => ({ name, type: reader.columnType(i).toString() }));
  const wide = names.map((_, i) => WIDE_INTEGERS.has(reader.columnTypeId(i)));
  const all = reader.getRowsJson();
  const rows: Array<Record<string, JsonValue>> = [];
  let used = 0;
  let cutBySize = false;
  for (const values of all.slice(0, limits.maxRows)) {
    const row: Record<string, JsonValue> = {};
    names.forEach((name, i) => {
      const v = values[i] as JsonValue;
      row[name] = wide[i] && typeof v === "string" && Number.isSafeInteger(Number(v)) ? Number(v) : v;
    });
    const size = JSON.stringify(row).length + 1;
    if (used + size > limits.maxChars) {
      cutBySize = true;
      break;
    }
    rows.push(row);
    used += size;
  }
  const more = all.length > limits.maxRows || !reader.done;
  let note: string | undefined;
  if (cutBySize) note = `output cut at ${rows.length} rows to stay under ${limits.maxChars} characters; select fewer columns, aggregate, or page with LIMIT/OFFSET.`;
  else if (more) note = `only the first ${limits.maxRows} rows are shown; aggregate, filter, or page with LIMIT ${limits.maxRows} OFFSET ${limits.maxRows}.`;
  return { columns, rows, ...(note ? { note } : {}) };
}

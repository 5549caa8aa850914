import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { JsonValue } from "@harnessx/core/extension";
import type { CsvDelimiter } from "./csv.js";
import type { TabularKind } from "./detect.js";
import type { ColumnInfo, LockSettings, QueryAnswer, QueryLimits } from "./sandbox-protocol.js";
import { SqlSandbox } from "./sql-sandbox.js";

export interface TableSource {
  kind: TabularKind;
  /** The result text (NDJSON: only its readable lines); a promise when it is still being encoded. */
  data: string | Uint8Array | Promise<string | Uint8Array>;
  delimiter?: CsvDelimiter;
}

function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function reader(source: TableSource, file: string, fullScan: boolean): string {
  const path = sqlString(file);
  const sample = fullScan ? ", sample_size = -1" : "";
  // Objects with many keys would otherwise be read as one MAP column instead of columns.
  const noMaps = ", map_inference_threshold = -1";
  switch (source.kind) {
    case "json_array_of_objects":
      return `read_json(${path}, format = 'array', records = 'true'${noMaps}${sample})`;
    case "ndjson":
      return `read_json(${path}, format = 'newline_delimited', records = 'true'${noMaps}${sample})`;
    case "csv":
      return `read_csv(${path}, header = true, delim = ${sqlString(source.delimiter ?? ",")}${sample})`;
  }
}

/** A spilled tabular result loaded into its own sandboxed DuckDB database as table `result`. */
export class ResultTable {
  private constructor(
    private readonly sandbox: SqlSandbox,
    readonly rowCount: number,
    readonly columns: ColumnInfo[],
  ) {}

  /**
   * Loads `source` through a file in the database's private directory (DuckDB reads files, not
   * strings), deletes it, then locks the database. When a key appears only past DuckDB's
   * type-inference sample, reads again scanning all.
   */
  static async load(source: TableSource, options: { tempDir: string; lock: LockSettings }): Promise<ResultTable> {
    // Relative to the database's working directory: DuckDB's errors then name no host path.
    const file = `${randomUUID()}.${source.kind === "csv" ? "csv" : "json"}`;
    // Written while the query process starts, not after.
    const sandbox = await SqlSandbox.open(options.tempDir, async (dir) =>
      fs.writeFile(join(dir, file), await source.data, { mode: 0o600 }),
    );
    try {
      try {
        await sandbox.trusted(`CREATE TABLE result AS SELECT * FROM ${reader(source, file, false)}`);
      } catch (error) {
        if (!/sample_size|unknown key/i.test(String(error))) throw error;
        await sandbox.trusted(`CREATE OR REPLACE TABLE result AS SELECT * FROM ${reader(source, file, true)}`);
      } finally {
        await fs.rm(join(sandbox.dir, file), { force: true });
      }
      await sandbox.lock(options.lock);
      const [[count]] = await sandbox.trusted("SELECT count(*) FROM result");
      const described = await sandbox.trusted("DESCRIBE result");
      const columns = described.map((row) => ({ name: String(row[0]), type: String(row[1]) }));
      return new ResultTable(sandbox, Number(count), columns);
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }

  /** False once a query overran a limit and its database was stopped: load the result again. */
  get alive(): boolean {
    return this.sandbox.alive;
  }

  query(sql: string, limits: QueryLimits): Promise<QueryAnswer> {
    return this.sandbox.query(sql, limits);
  }

  /** The first `n` rows, for `schema`. */
  async sample(n: number): Promise<Array<Record<string, JsonValue>>> {
    const answer = await this.sandbox.query(`SELECT * FROM result LIMIT ${Math.max(0, Math.floor(n))}`, {
      timeoutMs: 10_000,
      maxRows: n,
      maxChars: 1_000_000,
    });
    return answer.rows;
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }
}

import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as DuckDB from "@duckdb/node-api";
import { MAX_SQL_SPILL, sqlMemoryLimit } from "../format/read-limits.js";

let binding: typeof DuckDB | undefined;

/**
 * DuckDB's binding, loaded on first use: a native library that takes a fifth of a second to
 * load, which commands that run no SQL (`trace show`, `tail`, `replay`, `export`...) should not pay.
 */
export async function duckdb(): Promise<typeof DuckDB> {
  return (binding ??= await import("@duckdb/node-api"));
}

/** The binding once `duckdb()` has loaded it: for code that only runs on an open database. */
export function loadedDuckdb(): typeof DuckDB {
  if (!binding) throw new Error("DuckDB is used before a database was opened");
  return binding;
}

/**
 * A fresh in-memory database, offline (no extension downloads: the store is queried with DuckDB's
 * built-in JSON support) and bounded: `memory_limit` from `sqlMemoryLimit` (DuckDB's default is
 * 80% of the machine), spilling past it into a folder of its own under the system's temporary
 * folder (DuckDB makes it when it first spills and removes it on close), at most `MAX_SQL_SPILL`.
 */
export async function memoryDatabase(): Promise<DuckDB.DuckDBInstance> {
  const { DuckDBInstance } = await duckdb();
  return DuckDBInstance.create(":memory:", {
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    memory_limit: sqlMemoryLimit(),
    max_temp_directory_size: MAX_SQL_SPILL,
    // A folder per database: two processes spilling into one folder overwrite each other's files.
    temp_directory: join(tmpdir(), `harnessx-sql-${process.pid}-${randomBytes(4).toString("hex")}`),
  });
}

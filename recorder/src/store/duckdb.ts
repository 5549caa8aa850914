import type * as DuckDB from "@duckdb/node-api";

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

/** A fresh in-memory database, offline: no extension downloads (the store is queried with DuckDB's built-in JSON support). */
export async function memoryDatabase(): Promise<DuckDB.DuckDBInstance> {
  const { DuckDBInstance } = await duckdb();
  return DuckDBInstance.create(":memory:", { autoinstall_known_extensions: "false", autoload_known_extensions: "false" });
}

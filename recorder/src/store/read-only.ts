import type { DuckDBConnection } from "@duckdb/node-api";
import { sqlList } from "./sql-literal.js";

/**
 * Locks a connection to reading what is already loaded: only the `readable` files (the segments
 * the views read) stay reachable, nothing else on disk can be read or written, no extension
 * installed or loaded, and SQL cannot change these settings back. Call it once the tables exist.
 */
export async function lockToReading(connection: DuckDBConnection, readable: readonly string[] = []): Promise<void> {
  if (readable.length > 0) await connection.run(`SET allowed_paths = ${sqlList(readable)}`);
  await connection.run("SET enable_external_access = false");
  await connection.run("SET lock_configuration = true");
}

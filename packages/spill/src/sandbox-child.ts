// Entry of the query process: one in-memory DuckDB database holding table `result`, driven over
// IPC by SqlSandbox. It runs as its own process so that a query DuckDB cannot interrupt (constant
// folding in prepare), native memory outside DuckDB's buffer manager (string and list vectors) or a
// parser crash cost this process, which the agent kills, and never the agent. It starts in its own
// directory with an empty environment, so DuckDB knows no host path but that directory.
import { writeSync } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { JsonValue } from "@harnessx/core/extension";
import { duckdb } from "./duckdb.js";
import { firstLine, QueryRefusal, runGuardedQuery } from "./guarded-query.js";
import { MEMORY_MARKER, type LockSettings, type SandboxReply, type SandboxRequest } from "./sandbox-protocol.js";

/** Relative to the process's directory, so settings and errors that show it reveal nothing. */
const SWAP_DIR = "swap";
const WATCH_MS = 20;

const { DuckDBInstance } = duckdb;

// One thread from the start, loading included: reading a JSON array into a table that keeps the
// file's row order is not faster on two threads (measured 2-3x slower on a busy 2-core machine,
// where the agent is compressing and hashing the same result meanwhile).
const instance = await DuckDBInstance.create(":memory:", {
  threads: "1",
  autoload_known_extensions: "false",
  autoinstall_known_extensions: "false",
  allow_community_extensions: "false",
  temp_directory: SWAP_DIR,
});
const connection = await instance.connect();

/** Settings applied once trusted code has loaded the table, then locked: no files, network, extensions, or undoing any of it. */
async function lock(db: DuckDBConnection, settings: LockSettings): Promise<void> {
  for (const statement of [
    "SET enable_external_access = false",
    "SET autoload_known_extensions = false",
    "SET autoinstall_known_extensions = false",
    "SET allow_community_extensions = false",
    "SET threads = 1",
    `SET memory_limit = '${settings.memoryLimit}'`,
    `SET max_temp_directory_size = '${settings.maxTempSize}'`,
    "SET lock_configuration = true",
  ]) {
    await db.run(statement);
  }
  watchMemory(process.memoryUsage.rss() + settings.growthLimitBytes);
}

/**
 * DuckDB's memory_limit does not cover every allocation, so the process measures itself and dies
 * past `ceiling`. The marker goes out with a synchronous write first, so the agent can tell why.
 * The timer runs while DuckDB works on its own threads; JavaScript shaping is bounded by the heap limit.
 */
function watchMemory(ceiling: number): void {
  setInterval(() => {
    if (process.memoryUsage.rss() <= ceiling) return;
    writeSync(2, `${MEMORY_MARKER}\n`);
    process.kill(process.pid, "SIGKILL");
  }, WATCH_MS).unref();
}

async function handle(request: SandboxRequest): Promise<SandboxReply> {
  try {
    switch (request.op) {
      case "trusted":
        return {
          id: request.id,
          ok: true,
          value: (await connection.runAndReadAll(request.sql)).getRowsJson() as JsonValue[][],
        };
      case "lock":
        await lock(connection, request.settings);
        return { id: request.id, ok: true, value: null };
      case "query":
        return { id: request.id, ok: true, value: await runGuardedQuery(connection, request.sql, request.limits) };
    }
  } catch (error) {
    if (error instanceof QueryRefusal) return { id: request.id, ok: false, code: error.code, message: error.message };
    return { id: request.id, ok: false, code: "sandbox_failed", message: firstLine(error) };
  }
}

process.on("message", (request: SandboxRequest) => {
  void handle(request).then((reply) => process.send?.(reply));
});
// The agent went away or closed the sandbox. Killing rather than exiting: there is nothing to
// flush, and exit would wait on a query still running in DuckDB.
process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
process.send?.({ id: 0, ok: true, value: null } satisfies SandboxReply);

import { mkdtempSync, promises as fs } from "node:fs";
import { join } from "node:path";
import type { JsonValue } from "@harnessx/core/extension";
import { ReadResultError } from "./errors.js";
import {
  timeoutMessage,
  type LockSettings,
  type QueryAnswer,
  type QueryLimits,
  type SandboxReply,
} from "./sandbox-protocol.js";
import { SandboxExit, SandboxProcess } from "./sandbox-process.js";

/**
 * Past the time limit the query process interrupts DuckDB itself; this much later the agent
 * kills it, for work DuckDB does not interrupt (constant folding) or a process that stopped answering.
 */
const KILL_GRACE_MS = 400;

/**
 * One in-memory DuckDB database holding table `result`, in its own process, locked down for
 * model-written SQL: exactly one statement, which DuckDB itself must parse as a SELECT. Each query
 * is bounded in time (including its wait behind earlier queries), memory and answer size; a query
 * that overruns kills the process, and `alive` turns false so the owner loads the table again.
 */
export class SqlSandbox {
  private queue: Promise<unknown> = Promise.resolve();
  private settings?: LockSettings;

  private constructor(
    private readonly process: SandboxProcess,
    /** The process's private directory (its working directory); trusted code puts source files here. */
    readonly dir: string,
  ) {}

  /**
   * Starts an empty, not yet locked database in a new private directory under `parentDir`.
   * The directory is made and the process forked before this returns its promise, so the start-up
   * (Node and DuckDB booting, a few hundred ms) overlaps the caller's work; `prepare` (writing the
   * source file) runs in the directory meanwhile.
   */
  static async open(parentDir: string, prepare?: (dir: string) => Promise<void>): Promise<SqlSandbox> {
    const dir = mkdtempSync(join(parentDir, "db-"));
    let starting: Promise<SandboxProcess>;
    try {
      starting = SandboxProcess.start(dir);
    } catch (error) {
      starting = Promise.reject(error as Error);
    }
    const [started, prepared] = await Promise.allSettled([starting, prepare?.(dir)]);
    if (started.status === "fulfilled" && prepared.status === "fulfilled") return new SqlSandbox(started.value, dir);
    if (started.status === "fulfilled") {
      started.value.kill("closed");
      await started.value.exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
    if (started.status === "rejected")
      throw new Error(`the query process did not start: ${(started.reason as Error).message}`, {
        cause: started.reason,
      });
    throw (prepared as PromiseRejectedResult).reason;
  }

  get alive(): boolean {
    return this.process.alive;
  }

  /** Runs trusted SQL (loading, describe, counts); not for model input. */
  async trusted(sql: string): Promise<JsonValue[][]> {
    const reply = await this.exclusive(() => this.process.request({ op: "trusted", sql }));
    if (!reply.ok) throw new Error(reply.message);
    return reply.value as JsonValue[][];
  }

  /** Turns off files, network and extensions, sets the memory limits, and locks the configuration. */
  async lock(settings: LockSettings): Promise<void> {
    const reply = await this.exclusive(() => this.process.request({ op: "lock", settings }));
    if (!reply.ok) throw new Error(reply.message);
    this.settings = settings;
  }

  /** Runs the model's SQL under the sandbox rules; every refusal is a ReadResultError saying what to send. */
  query(sql: string, limits: QueryLimits): Promise<QueryAnswer> {
    const deadline = Date.now() + limits.timeoutMs;
    return this.exclusive(async () => {
      const remaining = deadline - Date.now();
      if (this.process.exitReason === "closed")
        throw new ReadResultError("closed", "the result database was closed; call read_result again");
      if (!this.process.alive)
        throw new ReadResultError(
          "restarted",
          "an earlier query on this result hit a limit and its database was stopped; send this query again.",
        );
      if (remaining <= 0)
        throw new ReadResultError(
          "timeout",
          `${timeoutMessage(limits.timeoutMs)} It waited behind earlier queries on the same result.`,
        );
      let reply: SandboxReply;
      try {
        reply = await this.process.request(
          { op: "query", sql, limits: { ...limits, timeoutMs: remaining } },
          remaining + KILL_GRACE_MS,
        );
      } catch (error) {
        throw this.stopped(error, limits);
      }
      if (!reply.ok)
        throw new ReadResultError(
          reply.code,
          reply.code === "timeout" ? timeoutMessage(limits.timeoutMs) : reply.message,
        );
      return reply.value as QueryAnswer;
    });
  }

  private stopped(error: unknown, limits: QueryLimits): ReadResultError {
    if (!(error instanceof SandboxExit))
      return new ReadResultError("sandbox_failed", `the query could not be run: ${(error as Error).message}`, {
        cause: error,
      });
    const reload = "The result is loaded again on the next call.";
    switch (error.reason) {
      case "timeout":
        return new ReadResultError("timeout", `${timeoutMessage(limits.timeoutMs)} ${reload}`, { cause: error });
      case "memory":
        return new ReadResultError(
          "memory_limit",
          `the query needed more memory than allowed (${this.settings?.memoryLimit ?? "the limit"}) and was stopped. Do not build huge values (repeat, lpad, string_agg, list over range): filter, aggregate or LIMIT first. ${reload}`,
          { cause: error },
        );
      case "crashed":
        return new ReadResultError(
          "sandbox_crashed",
          `the query crashed its database (${error.message}). Simplify the query. ${reload}`,
          { cause: error },
        );
      case "closed":
        return new ReadResultError("closed", "the result database was closed; call read_result again", {
          cause: error,
        });
    }
  }

  /** One request at a time: DuckDB's interrupt and the kill deadline each belong to a single query. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Stops the process and removes its directory (its swap files with it). */
  async close(): Promise<void> {
    this.process.kill("closed");
    await this.process.exited;
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}

import { HarnessError } from "@harnessx/core";
import { MAX_EVENT_LINE_BYTES, SQL_MEMORY_ENV, sqlMemoryLimit } from "../format/read-limits.js";

/** Which of a reader's DuckDB limits a query met. */
export type SqlLimit =
  /** `memory_limit` (`HARNESSX_SQL_MEMORY`) with its spill folder full, or an allocation larger than the limit. */
  | "memory"
  /** A JSON object or text line longer than `MAX_EVENT_LINE_BYTES`. */
  | "line";

/**
 * DuckDB stopped at one of the limits a reader gives it: a crafted Parquet file or recording
 * asks for that much on purpose, an honest query over a big dataset may need more memory
 * (`HARNESSX_SQL_MEMORY` raises it). `code` is `sql_<limit>_limit`.
 */
export class SqlLimitError extends HarnessError {
  constructor(
    /** The limit met. */
    readonly limit: SqlLimit,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`sql_${limit}_limit`, message, options);
  }
}

/** DuckDB's own words, first line only and cut short: its messages may quote the data (a whole line). */
function duckdbSaid(message: string): string {
  const first = (message.split("\n", 1)[0] ?? "").trim();
  return first.length > 200 ? `${first.slice(0, 200)}...` : first;
}

/** The `SqlLimitError` a DuckDB failure stands for, or undefined when it is another failure. */
export function sqlLimitErrorOf(error: unknown): SqlLimitError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (/Out of Memory Error/i.test(message)) {
    return new SqlLimitError(
      "memory",
      `DuckDB needed more memory than the ${sqlMemoryLimit()} a reader gives it (${SQL_MEMORY_ENV}=4GB raises it; a crafted Parquet file asks for this much on purpose): ${duckdbSaid(message)}`,
      { cause: error },
    );
  }
  if (/maximum_object_size|maximum line size|max_line_size/i.test(message)) {
    return new SqlLimitError(
      "line",
      `a line holds more than the ${MAX_EVENT_LINE_BYTES.toLocaleString("en-US")} bytes a reader takes (the recorder never writes one): ${duckdbSaid(message)}`,
      { cause: error },
    );
  }
  return undefined;
}

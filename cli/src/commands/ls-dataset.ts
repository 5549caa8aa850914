import type { CommandContext } from "../context.js";
import type { Colors } from "../output/colors.js";
import { formatCount, formatDuration, formatRunCost, formatTime } from "../output/format.js";
import type { Column } from "../output/table.js";
import type { RecordingTables } from "@harnessx/recorder";
import { runQuery, type QueryValue } from "../store/run-query.js";
import { CliError, invalidInput } from "../errors.js";
import { openDataset } from "../store/dataset.js";
import type { LabelFilters } from "../store/label-filters.js";

/** What `trace ls` filters by. */
export interface RunFilters {
  statuses?: Set<string>;
  since?: number;
  traceId?: string;
  limit?: number;
  labels?: LabelFilters;
}

type RunRow = Record<string, unknown>;
const num = (value: unknown): number | null =>
  typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : null;
const ms = (value: unknown): number | null => (value instanceof Date ? value.getTime() : null);

function columns(c: Colors): Column<RunRow>[] {
  const status = (r: RunRow): string => {
    const text = r.detail === "summary" ? `${r.status} (summary)` : String(r.status);
    return r.status === "completed"
      ? c.green(text)
      : r.status === "failed" || r.status === "crashed"
        ? c.red(text)
        : c.yellow(text);
  };
  const tokens = (r: RunRow) => (num(r.input_tokens) ?? 0) + (num(r.output_tokens) ?? 0);
  return [
    { header: "RUN", value: (r) => String(r.run_id) },
    { header: "HOST", value: (r) => (r.host as string | null) ?? "-" },
    { header: "SERVICE", value: (r) => (r.service as string | null) ?? "-" },
    { header: "AGENT", value: (r) => (r.framework ? `${r.agent} (${r.framework})` : String(r.agent)) },
    { header: "STATUS", value: (r) => String(r.status), format: status },
    {
      header: "START",
      value: (r) => new Date(ms(r.started_at) ?? 0).toISOString(),
      format: (r) => formatTime(ms(r.started_at)),
    },
    {
      header: "DURATION",
      value: (r) => num(r.duration_ms),
      format: (r) => formatDuration(num(r.duration_ms)),
      align: "right",
    },
    { header: "MODEL CALLS", value: (r) => num(r.model_calls), align: "right" },
    { header: "TOOL CALLS", value: (r) => num(r.tool_calls), align: "right" },
    { header: "ERRORS", value: (r) => num(r.errors), align: "right" },
    { header: "TOKENS", value: tokens, format: (r) => formatCount(tokens(r)), align: "right" },
    {
      header: "COST",
      value: (r) => num(r.cost_usd),
      format: (r) =>
        formatRunCost(
          r.unpriced_calls === null ? null : { usd: num(r.cost_usd), unpricedCalls: num(r.unpriced_calls) ?? 0 },
        ),
      align: "right",
    },
  ];
}

/**
 * The longest text of a `runs` row that `ls` reads: names, hosts and error messages are far
 * shorter. A dataset comes from elsewhere, so longer ones are cut by DuckDB, before they reach
 * JavaScript (an 11 KB Parquet file can hold a 600 MB string).
 */
const MAX_LISTED_CHARS = 4096;
/** The most tags of a row `ls` reads (a run carries at most 64). */
const MAX_LISTED_TAGS = 64;

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The runs that pass the filters, newest first, selected, cut, filtered and limited in SQL: only the rows shown reach JavaScript. */
async function selectRuns(db: RecordingTables, filters: RunFilters): Promise<RunRow[]> {
  const described = (await runQuery(db, "DESCRIBE runs")).rows as Array<{ column_name: string; column_type: string }>;
  const select = described.map(({ column_name: name, column_type: type }) => {
    const column = quoted(name);
    if (type === "VARCHAR") return `left(${column}, ${MAX_LISTED_CHARS}) AS ${column}`;
    if (type === "VARCHAR[]")
      return `list_transform(list_slice(${column}, 1, ${MAX_LISTED_TAGS}), t -> left(t, ${MAX_LISTED_CHARS})) AS ${column}`;
    if (type === "JSON")
      return `CASE WHEN strlen(${column}::VARCHAR) <= ${MAX_LISTED_CHARS} THEN ${column} END AS ${column}`;
    return column;
  });
  const where: string[] = [];
  const values: QueryValue[] = [];
  if (filters.statuses) {
    where.push(`status IN (${[...filters.statuses].map(() => "?").join(", ") || "NULL"})`);
    values.push(...filters.statuses);
  }
  if (filters.since !== undefined) {
    where.push("coalesce(epoch_ms(started_at), 0) >= ?");
    values.push(filters.since);
  }
  if (filters.traceId !== undefined) {
    where.push("trace_id = ?");
    values.push(filters.traceId);
  }
  for (const tag of filters.labels?.tags ?? []) {
    where.push("list_contains(coalesce(tags, []), ?)");
    values.push(tag);
  }
  for (const [key, value] of filters.labels?.where ?? []) {
    where.push(`json_transform(metadata, '"MAP(VARCHAR, VARCHAR)"')[?] = ?`);
    values.push(key, value);
  }
  const limit = filters.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(filters.limit))}` : "";
  const sql = `SELECT ${select.join(", ")} FROM runs${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY started_at DESC, run_id${limit}`;
  return (await runQuery(db, sql, {}, values)).rows;
}

/**
 * `trace ls --dataset <dir>`: the runs of a dataset (every machine's), newest first, from its
 * `runs` table; `--since` skips the date partitions before it, then filters by the exact time.
 */
export async function listDatasetRuns(ctx: CommandContext, dataset: string, filters: RunFilters): Promise<void> {
  const db = await openDataset(ctx, dataset, {
    readOnly: true,
    ...(filters.since !== undefined ? { since: filters.since } : {}),
  });
  let shown: RunRow[];
  let empty = false;
  try {
    shown = await selectRuns(db, filters);
    if (shown.length === 0)
      empty = Number((await runQuery(db, "SELECT count(*) AS n FROM runs")).rows[0]?.n ?? 0) === 0;
  } catch (error) {
    // This SQL is harnessx's own: when it fails, the dataset's files are not the exporter's (columns missing, wrong types).
    if (error instanceof CliError && error.code === "query_failed")
      throw invalidInput(
        `the runs table of ${dataset} cannot be read (${error.message}): its files were not written by trace export`,
        error,
      );
    throw error;
  } finally {
    db.close();
  }
  if (ctx.options.json)
    ctx.printJson(shown.map((r) => ({ ...r, started_at: toIso(r.started_at), ended_at: toIso(r.ended_at) })));
  else if (shown.length === 0) ctx.note(empty ? "no runs in this dataset yet" : "no runs match the filters");
  else ctx.printRows(shown, columns(ctx.colors));
}

const toIso = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : null);

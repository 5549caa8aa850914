import type { CommandContext } from "../context.js";
import type { Colors } from "../output/colors.js";
import { formatCount, formatDuration, formatRunCost, formatTime } from "../output/format.js";
import type { Column } from "../output/table.js";
import { runQuery } from "../store/run-query.js";
import { openDataset } from "../store/dataset.js";

/** What `trace ls` filters by. */
export interface RunFilters {
  statuses?: Set<string>;
  since?: number;
  traceId?: string;
  limit?: number;
}

type RunRow = Record<string, unknown>;
const num = (value: unknown): number | null => (typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : null);
const ms = (value: unknown): number | null => (value instanceof Date ? value.getTime() : null);

function columns(c: Colors): Column<RunRow>[] {
  const status = (r: RunRow): string => {
    const text = r.detail === "summary" ? `${r.status} (summary)` : String(r.status);
    return r.status === "completed" ? c.green(text) : r.status === "failed" || r.status === "crashed" ? c.red(text) : c.yellow(text);
  };
  const tokens = (r: RunRow) => (num(r.input_tokens) ?? 0) + (num(r.output_tokens) ?? 0);
  return [
    { header: "RUN", value: (r) => String(r.run_id) },
    { header: "HOST", value: (r) => (r.host as string | null) ?? "-" },
    { header: "SERVICE", value: (r) => (r.service as string | null) ?? "-" },
    { header: "AGENT", value: (r) => (r.framework ? `${r.agent} (${r.framework})` : String(r.agent)) },
    { header: "STATUS", value: (r) => String(r.status), format: status },
    { header: "START", value: (r) => new Date(ms(r.started_at) ?? 0).toISOString(), format: (r) => formatTime(ms(r.started_at)) },
    { header: "DURATION", value: (r) => num(r.duration_ms), format: (r) => formatDuration(num(r.duration_ms)), align: "right" },
    { header: "MODEL CALLS", value: (r) => num(r.model_calls), align: "right" },
    { header: "TOOL CALLS", value: (r) => num(r.tool_calls), align: "right" },
    { header: "ERRORS", value: (r) => num(r.errors), align: "right" },
    { header: "TOKENS", value: tokens, format: (r) => formatCount(tokens(r)), align: "right" },
    { header: "COST", value: (r) => num(r.cost_usd), format: (r) => formatRunCost(r.unpriced_calls === null ? null : { usd: num(r.cost_usd), unpricedCalls: num(r.unpriced_calls) ?? 0 }), align: "right" },
  ];
}

/**
 * `trace ls --dataset <dir>`: the runs of a dataset (every machine's), newest first, from its
 * `runs` table; `--since` skips the date partitions before it, then filters by the exact time.
 */
export async function listDatasetRuns(ctx: CommandContext, dataset: string, filters: RunFilters): Promise<void> {
  const db = await openDataset(ctx, dataset, { readOnly: true, ...(filters.since !== undefined ? { since: filters.since } : {}) });
  let rows: RunRow[];
  try {
    rows = (await runQuery(db, "SELECT * FROM runs ORDER BY started_at DESC, run_id")).rows;
  } finally {
    db.close();
  }
  let shown = rows.filter(
    (r) =>
      (!filters.statuses || filters.statuses.has(String(r.status))) &&
      (filters.since === undefined || (ms(r.started_at) ?? 0) >= filters.since) &&
      (filters.traceId === undefined || r.trace_id === filters.traceId),
  );
  if (filters.limit !== undefined) shown = shown.slice(0, filters.limit);
  if (ctx.options.json) ctx.printJson(shown.map((r) => ({ ...r, started_at: toIso(r.started_at), ended_at: toIso(r.ended_at) })));
  else if (shown.length === 0) ctx.note(rows.length === 0 ? "no runs in this dataset yet" : "no runs match the filters");
  else ctx.printRows(shown, columns(ctx.colors));
}

const toIso = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : null);

import { Command, Option } from "commander";
import type { CommandSpec } from "../command-spec.js";
import type { Colors } from "../output/colors.js";
import { usageError } from "../errors.js";
import { formatCount, formatDuration, formatTime, parseSince } from "../output/format.js";
import type { Column } from "../output/table.js";
import { ensureStore } from "../store/resolve.js";
import { listRuns, type ListedRun } from "../store/runs.js";
import { basename } from "node:path";

function columns(c: Colors): Column<ListedRun>[] {
  const status = (r: ListedRun): string => {
    const text = r.stale ? `${r.status} (dead: trace recover)` : r.status;
    return r.status === "completed" ? c.green(text) : r.status === "failed" || r.status === "crashed" || r.stale ? c.red(text) : c.yellow(text);
  };
  return [
  { header: "RUN", value: (r) => r.runId },
  { header: "AGENT", value: (r) => r.agent },
  { header: "STATUS", value: (r) => r.status, format: status },
  { header: "START", value: (r) => new Date(r.startedAt).toISOString(), format: (r) => formatTime(r.startedAt) },
  { header: "DURATION", value: (r) => r.durationMs, format: (r) => formatDuration(r.durationMs), align: "right" },
  { header: "MODEL CALLS", value: (r) => r.modelCalls, align: "right" },
  { header: "TOOL CALLS", value: (r) => r.toolCalls, align: "right" },
  { header: "ERRORS", value: (r) => r.errors, align: "right" },
  { header: "TOKENS", value: (r) => r.inputTokens + r.outputTokens, format: (r) => formatCount(r.inputTokens + r.outputTokens), align: "right" },
  { header: "BUNDLE", value: (r) => r.bundle, format: (r) => (r.bundle ? basename(r.bundle) : "-") },
  ];
}

/** `trace ls`: the runs of the store, newest first. */
export const lsCommand: CommandSpec = {
  define: () =>
    new Command("ls")
      .description("list the runs in the store, newest first")
      .option("--status <status>", "only runs with this status (comma-separated: completed,failed,crashed,...)")
      .option("--since <when>", "only runs started since a duration ago (30m, 2h, 7d) or an ISO date")
      .addOption(new Option("--limit <n>", "at most this many runs").argParser((v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n <= 0) throw usageError(`--limit must be a positive integer, got "${v}"`);
        return n;
      })),
  async run(ctx, _args, options) {
    const storeDir = await ensureStore(ctx);
    let since: number | undefined;
    if (typeof options.since === "string") {
      since = parseSince(options.since);
      if (since === undefined) throw usageError(`--since must be a duration (30m, 2h, 7d) or an ISO date, got "${options.since}"`);
    }
    const statuses = typeof options.status === "string" ? new Set(options.status.split(",").map((s) => s.trim()).filter(Boolean)) : undefined;
    const runs = await listRuns(storeDir);
    let shown = runs.filter((r) => (!statuses || statuses.has(r.status)) && (since === undefined || r.startedAt >= since));
    if (typeof options.limit === "number") shown = shown.slice(0, options.limit);
    if (ctx.options.json) {
      ctx.printJson(
        shown.map(({ byKind: _byKind, ...r }) => ({
          ...r,
          startedAt: new Date(r.startedAt).toISOString(),
          endedAt: r.endedAt === null ? null : new Date(r.endedAt).toISOString(),
        })),
      );
    } else if (shown.length === 0) {
      ctx.note(runs.length === 0 ? "no runs recorded in this store yet" : "no runs match the filters");
    } else ctx.printRows(shown, columns(ctx.colors));
  },
};

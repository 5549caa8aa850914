import { Command, Option } from "commander";
import { RUN_STATUSES, storeStats } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import type { Colors } from "../output/colors.js";
import { usageError } from "../errors.js";
import { choiceList, traceIdValue } from "../option-values.js";
import { formatCount, formatDuration, formatRunCost, formatTime } from "../output/format.js";
import { sinceOption } from "../store/dataset.js";
import { listDatasetRuns } from "./ls-dataset.js";
import type { Column } from "../output/table.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { ensureStore } from "../store/target.js";
import { listRuns, type InvalidRun, type ListedRun } from "../store/runs.js";
import { basename } from "node:path";
import { labelFilters, labelsMatch, repeated } from "../store/label-filters.js";

type Row = ListedRun | InvalidRun;

/** A run's figure, or null on a folder that is not a readable run. */
const of = <T>(r: Row, pick: (run: ListedRun) => T): T | null => (r.status === "invalid" ? null : pick(r));

function columns(c: Colors, withTags: boolean): Column<Row>[] {
  const status = (r: Row): string => {
    if (r.status === "invalid") return c.red(r.status);
    // A run reduced by tail retention keeps only its summary: commands that read events refuse it.
    // A durable run its process left unfinished is resumed (agent.resume) rather than recovered.
    const text = r.resumable
      ? `${r.status} (${r.stale ? "dead, " : ""}resumable)`
      : r.stale
        ? `${r.status} (dead: trace recover)`
        : r.detail === "summary"
          ? `${r.status} (summary)`
          : r.status;
    return r.status === "completed"
      ? c.green(text)
      : r.status === "failed" || r.status === "crashed" || r.stale
        ? c.red(text)
        : c.yellow(text);
  };
  return [
    { header: "RUN", value: (r) => r.runId },
    { header: "AGENT", value: (r) => of(r, (x) => (x.framework ? `${x.agent} (${x.framework})` : x.agent)) },
    { header: "STATUS", value: (r) => r.status, format: status },
    {
      header: "START",
      value: (r) => of(r, (x) => new Date(x.startedAt).toISOString()),
      format: (r) => formatTime(of(r, (x) => x.startedAt)),
    },
    {
      header: "DURATION",
      value: (r) => of(r, (x) => x.durationMs),
      format: (r) => formatDuration(of(r, (x) => x.durationMs)),
      align: "right",
    },
    { header: "MODEL CALLS", value: (r) => of(r, (x) => x.modelCalls), align: "right" },
    { header: "TOOL CALLS", value: (r) => of(r, (x) => x.toolCalls), align: "right" },
    { header: "ERRORS", value: (r) => of(r, (x) => x.errors), align: "right" },
    {
      header: "TOKENS",
      value: (r) => of(r, (x) => x.inputTokens + x.outputTokens),
      format: (r) => formatCount(of(r, (x) => x.inputTokens + x.outputTokens)),
      align: "right",
    },
    {
      header: "COST",
      value: (r) => of(r, (x) => x.cost?.usd ?? null),
      format: (r) => formatRunCost(of(r, (x) => x.cost)),
      align: "right",
    },
    ...(withTags
      ? [
          {
            header: "TAGS",
            value: (r: Row) => of(r, (x) => x.tags.join(",")),
            format: (r: Row) => terminalSafe(of(r, (x) => x.tags.join(",")) || "-"),
          },
        ]
      : []),
    {
      header: "BUNDLE",
      value: (r) => of(r, (x) => x.bundle),
      format: (r) => terminalSafe(basename(of(r, (x) => x.bundle) ?? "-")),
    },
  ];
}

/** How many runs `trace ls` lists of a store when `--limit` and `--all` are not given. */
const DEFAULT_LIMIT = 50;

/** `trace ls`: the runs of the store, newest first. */
export const lsCommand: CommandSpec = {
  define: () =>
    new Command("ls")
      .description("list the runs in the store (or in a Parquet dataset: --dataset), newest first")
      .option(
        "--dataset <dir|s3://bucket/prefix>",
        "list the runs of a dataset (a folder written by trace export --format parquet, or one trace sync uploaded), with HOST and SERVICE",
      )
      .option(
        "--status <status>",
        `only runs with these statuses (comma-separated: ${[...RUN_STATUSES, "invalid"].join(", ")})`,
      )
      .option("--since <when>", "only runs started since a duration ago (30m, 2h, 7d) or an ISO date")
      .addOption(
        new Option(
          "--trace-id <id>",
          "only the run(s) with this trace id (32 hex digits, as a tracing backend shows it)",
        ).argParser((v) => traceIdValue("--trace-id", v)),
      )
      .addOption(
        new Option("--limit <n>", `at most this many runs (default: the newest ${DEFAULT_LIMIT} of a store)`).argParser(
          (v) => {
            const n = Number(v);
            if (!Number.isInteger(n) || n <= 0) throw usageError(`--limit must be a positive integer, got "${v}"`);
            return n;
          },
        ),
      )
      .option("--tag <tag>", "only runs carrying this tag (repeat for several: all must be there)", repeated)
      .option(
        "--where <key=value>",
        "only runs whose metadata has this value at this key (repeat for several: all must match)",
        repeated,
      )
      .option("--all", "every run of the store, however many"),
  async run(ctx, _args, options) {
    const since = sinceOption(options.since);
    const statuses =
      typeof options.status === "string"
        ? choiceList("--status", options.status, [...RUN_STATUSES, "invalid"])
        : undefined;
    const labels = labelFilters(options.tag, options.where);
    if (typeof options.dataset === "string") {
      const filters = {
        labels,
        statuses,
        since,
        traceId: typeof options.traceId === "string" ? options.traceId : undefined,
        limit: typeof options.limit === "number" ? options.limit : undefined,
      };
      return listDatasetRuns(ctx, options.dataset, filters);
    }
    const storeDir = await ensureStore(ctx);
    const traceId = typeof options.traceId === "string" ? options.traceId : undefined;
    if (options.all && typeof options.limit === "number") throw usageError("--all and --limit cannot be used together");
    // Like `gh run list`: a store a month old holds a hundred thousand runs, and the newest are the ones looked for.
    const limit = options.all ? undefined : typeof options.limit === "number" ? options.limit : DEFAULT_LIMIT;
    const matches = (r: Row) =>
      (!statuses || statuses.has(r.status)) &&
      // A folder that is not a readable run has no start time or trace id: --since and --trace-id leave it out.
      (since === undefined || of(r, (x) => x.startedAt >= since) === true) &&
      (traceId === undefined || of(r, (x) => x.traceId === traceId) === true) &&
      (labels === undefined || of(r, (x) => labelsMatch(x, labels)) === true);
    // The catalog is read only as far as the newest runs that match: a month-old store lists as fast as a new one.
    const { runs, invalid, notes, folders } = await listRuns(storeDir, {
      ...(limit !== undefined ? { limit } : {}),
      where: (run) => matches({ ...run, bundle: null }),
    });
    for (const note of notes) ctx.note(note);
    if (limit !== undefined && runs.length === limit && options.limit === undefined)
      ctx.note(`the newest ${limit} runs are listed; --limit <n> or --all lists more`);
    let shown: Row[] = [...runs, ...invalid.filter(matches)];
    if (limit !== undefined) shown = shown.slice(0, limit);
    if (ctx.options.json) {
      ctx.printJson(
        shown.map((r) => {
          if (r.status === "invalid") return r;
          const { byKind: _byKind, ...rest } = r;
          return {
            ...rest,
            startedAt: new Date(r.startedAt).toISOString(),
            endedAt: r.endedAt === null ? null : new Date(r.endedAt).toISOString(),
          };
        }),
      );
    } else if (shown.length === 0) {
      ctx.note(folders === 0 ? "no runs recorded in this store yet" : "no runs match the filters");
    } else {
      const withTags = shown.some((r) => of(r, (x) => x.tags.length > 0) === true);
      ctx.printRows(shown, columns(ctx.colors, withTags));
      for (const r of shown) if (r.status === "invalid") ctx.note(`${r.runId}: not a readable run: ${r.problem}`);
      const stats = storeStats({ runs, invalid });
      const whole =
        runs.length !== limit && !statuses && since === undefined && traceId === undefined && labels === undefined;
      if (stats.reduced > 0)
        ctx.note(
          `${stats.runs} run(s) ${whole ? "in the store" : "listed"}: ${stats.kept} with their events, ${stats.reduced} reduced to their summary by retention (trace summary reads them)`,
        );
    }
  },
};

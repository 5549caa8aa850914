import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cutPoint } from "@harnessx/core";
import type { Redactor, SandboxExecData } from "@harnessx/core/extension";
import { isTabular, type ResultKind } from "./detect.js";
import { ReadResultError } from "./errors.js";
import { HostPaths } from "./host-paths.js";
import { prettyPrintJson } from "./json-text.js";
import { readableNdjson } from "./readable-ndjson.js";
import { lockSettings, type ResolvedLimits, type SpillStore } from "./options.js";
import { answerQuery } from "./query.js";
import type { ReadResultInput } from "./read-result-input.js";
import { RegexRunner } from "./regex-runner.js";
import { SafeCuts } from "./safe-cuts.js";
import { ResultTable, type TableSource } from "./result-table.js";
import { tableSchema, textSchema } from "./schema.js";
import { searchView } from "./search.js";
import { sliceView } from "./slice.js";
import { isResultId, type SpillIndex, type SpillRecord } from "./spill-index.js";
import { TableCache } from "./table-cache.js";
import { TextView, ViewCache } from "./text-view.js";

function isJsonKind(kind: ResultKind): boolean {
  return kind === "json" || kind === "json_array_of_objects";
}

/** Answers `read_result` operations over the results in one session's spill index. */
export class ResultReader {
  private readonly views: ViewCache;
  private readonly tables: TableCache;
  private readonly regex = new RegexRunner();
  /** Each view's cuts, with the context windows they share. */
  private readonly cuts = new WeakMap<TextView, SafeCuts>();
  private tempDir?: string;
  private paths?: { dir: string | undefined; answers: HostPaths; errors: HostPaths };

  constructor(
    private readonly index: SpillIndex,
    private readonly store: SpillStore,
    private readonly limits: ResolvedLimits,
    private readonly options: {
      maxOpenTables: number;
      viewCacheBytes: number;
      onStatement?: (data: SandboxExecData) => Promise<void> | void;
      /** The agent's redaction policy, once installed: what a cut may show alone. */
      redactor?: () => Redactor | undefined;
    },
  ) {
    this.views = new ViewCache(options.viewCacheBytes);
    this.tables = new TableCache(options.maxOpenTables);
  }

  /** A private directory (mode 0700) for DuckDB's source files and swap. */
  private dir(): string {
    return (this.tempDir ??= mkdtempSync(join(tmpdir(), "harnessx-spill-")));
  }

  /**
   * Loads a tabular result into DuckDB (throws when DuckDB cannot read it as that kind). `text` may
   * be a promise: the query process starts now, and the text is written once it is ready.
   */
  loadTable(
    kind: ResultKind,
    text: string | Uint8Array | Promise<string | Uint8Array>,
    extra: { delimiter?: TableSource["delimiter"]; unreadableLines?: number } = {},
  ): Promise<ResultTable> {
    if (!isTabular(kind)) throw new Error(`${kind} is not tabular`);
    let data = text;
    if (kind === "ndjson" && extra.unreadableLines)
      data = Promise.resolve(text).then((t) =>
        readableNdjson(typeof t === "string" ? t : Buffer.from(t).toString("utf8")),
      );
    return ResultTable.load(
      { kind, data, delimiter: extra.delimiter },
      { tempDir: this.dir(), lock: lockSettings(this.limits) },
    );
  }

  /** Keeps a table built while spilling, so the first query does not load it again. */
  adoptTable(resultId: string, table: ResultTable): void {
    this.tables.put(resultId, table);
  }

  /** Keeps the bytes of a result just spilled when they are already the view (not JSON). */
  adoptBytes(record: SpillRecord, bytes: Buffer): void {
    if (!isJsonKind(record.kind)) this.views.set(record.sha256, new TextView(bytes, false));
  }

  /**
   * Answers one call. Host directories are hidden from everything the model gets: the private
   * directory from answers (DuckDB can show its own settings), and every host directory from errors.
   */
  async read(input: ReadResultInput): Promise<string> {
    let answer: string;
    const max = this.limits.maxOutputChars;
    try {
      answer = await this.answer(input);
    } catch (error) {
      // Errors too are bounded: one may quote what the model sent (a pattern of megabytes).
      const scrub = (text: string) => bounded(this.hostPaths().errors.scrub(text), max);
      if (error instanceof ReadResultError)
        throw new ReadResultError(error.code.replace(/^read_result_/, ""), scrub(error.message), { cause: error });
      throw new ReadResultError("failed", `read_result failed: ${scrub((error as Error).message)}`, { cause: error });
    }
    return bounded(this.hostPaths().answers.scrub(answer), max);
  }

  /** What the model is shown of a view between two byte offsets: the agent's policy decides what a cut may show alone (see `SafeCuts`). */
  private show(view: TextView): (from: number, to: number) => string {
    const redactor = this.options.redactor?.();
    if (!redactor?.enabled) return (from, to) => view.text(from, to);
    let cuts = this.cuts.get(view);
    if (!cuts) this.cuts.set(view, (cuts = new SafeCuts(view, redactor)));
    return (from, to) => cuts.text(from, to);
  }

  /** Built after the call, which may have created the private directory. */
  private hostPaths(): { answers: HostPaths; errors: HostPaths } {
    const dir = this.tempDir;
    if (!this.paths || this.paths.dir !== dir) {
      const sandbox = { path: dir, label: "<sandbox>" };
      this.paths = {
        dir,
        answers: new HostPaths([sandbox]),
        errors: HostPaths.ofHost([sandbox, { path: this.store.root && resolve(this.store.root), label: "<store>" }]),
      };
    }
    return this.paths;
  }

  private async answer(input: ReadResultInput): Promise<string> {
    const record = this.resolve(input.resultId);
    const max = this.limits.maxOutputChars;
    switch (input.op) {
      case "slice": {
        const view = await this.view(record);
        return sliceView(
          view,
          { unit: input.unit ?? "lines", start: input.start, count: input.count },
          max,
          this.show(view),
        );
      }
      case "search": {
        if (typeof input.pattern !== "string")
          throw new ReadResultError(
            "bad_input",
            'op "search" needs pattern (text to find; set regex: true for a regular expression).',
          );
        const view = await this.view(record);
        return searchView(
          view,
          {
            pattern: input.pattern,
            regex: input.regex === true,
            maxMatches: this.limits.maxMatches,
            timeoutMs: this.limits.searchTimeoutMs,
            maxChars: max,
          },
          this.regex,
          this.show(view),
        );
      }
      case "schema":
        return this.schema(record);
      case "query":
        return this.query(record, input.sql);
      default:
        throw new ReadResultError(
          "bad_input",
          `op must be one of "slice", "search", "schema", "query"; got ${JSON.stringify(input.op)}.`,
        );
    }
  }

  private resolve(resultId: unknown): SpillRecord {
    if (!isResultId(resultId)) {
      throw new ReadResultError(
        "unknown_result",
        `resultId must be an id like "res_0123456789abcdef" taken from a spilled-result envelope; got ${JSON.stringify(String(resultId).slice(0, 80))}. Paths and other ids are not accepted.`,
      );
    }
    const record = this.index.get(resultId);
    if (!record)
      throw new ReadResultError(
        "unknown_result",
        `no spilled result ${resultId} in this session. Use a resultId from an envelope in this conversation.`,
      );
    return record;
  }

  private async text(record: SpillRecord): Promise<Buffer> {
    try {
      return await this.store.get(record.sha256);
    } catch (error) {
      throw new ReadResultError(
        "gone",
        `the stored data of ${record.resultId} is no longer available (${(error as Error).message}). Run the tool "${record.toolName}" again.`,
        { cause: error },
      );
    }
  }

  private async view(record: SpillRecord): Promise<TextView> {
    const cached = this.views.get(record.sha256);
    if (cached) return cached;
    const data = await this.text(record);
    const view = isJsonKind(record.kind) ? new TextView(prettyPrintJson(data), true) : new TextView(data, false);
    this.views.set(record.sha256, view);
    return view;
  }

  private async table(record: SpillRecord): Promise<ResultTable> {
    const load = async () => {
      const data = await this.text(record);
      try {
        return await this.loadTable(record.kind, data, record);
      } catch (error) {
        throw new ReadResultError(
          "load_failed",
          `${record.resultId} could not be loaded as a table (${(error as Error).message.split("\n")[0]}). Use op "slice" or "search" instead.`,
          { cause: error },
        );
      }
    };
    const table = await this.tables.get(record.resultId, load);
    if (table.alive) return table;
    // A query overran a limit and its database was stopped: this call gets a fresh one.
    this.tables.delete(record.resultId);
    return this.tables.get(record.resultId, load);
  }

  private async query(record: SpillRecord, sql: unknown): Promise<string> {
    if (typeof sql !== "string")
      throw new ReadResultError(
        "bad_input",
        'op "query" needs sql: one SELECT over table "result", e.g. SELECT count(*) FROM result.',
      );
    if (!isTabular(record.kind)) {
      throw new ReadResultError(
        "not_tabular",
        `${record.resultId} is ${record.kind}, not a table, so it cannot be queried with SQL. Use op "slice" or "search" (or "schema" for its structure).`,
      );
    }
    const table = await this.table(record);
    return answerQuery(table, sql, {
      limits: this.limits,
      onStatement: this.options.onStatement,
      reload: () => this.table(record),
    });
  }

  private async schema(record: SpillRecord): Promise<string> {
    if (isTabular(record.kind)) return tableSchema(record, await this.table(record), this.limits.maxOutputChars);
    const view = await this.view(record);
    return textSchema(record, view, this.show(view), this.limits.maxOutputChars);
  }

  async close(): Promise<void> {
    await this.tables.closeAll();
    await this.regex.close();
    this.views.clear();
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }
}

/** `text`, or its head (off any token) and a note, within `max` characters. */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `… [cut: ${text.length} characters]`;
  const room = Math.max(0, max - note.length);
  return `${text.slice(0, cutPoint(text, room) || room)}${note}`;
}

import { defaultStoreDir, noteStoreDir, type ToolResult } from "@harnessx/core";
import { Extension, HookEvent, type ExtensionContext, type JsonValue, packageVersion } from "@harnessx/core/extension";
import { ArtifactStore } from "@harnessx/artifacts";
import { positiveInt, resolveLimits, resolveRetention, type ResultSpillOptions, type SpillStore } from "./options.js";
import { readResultTool } from "./read-result-tool.js";
import { ResultReader } from "./result-reader.js";
import { readSpillState, SpillIndex, type SpillRecord } from "./spill-index.js";
import { Spiller } from "./spiller.js";

/**
 * Stores tool results larger than `thresholdBytes` as artifacts, hands the model a compact
 * envelope instead, and registers `read_result` to slice, search, describe and query them
 * (SQL through a locked-down DuckDB). Each spill is emitted as a `spill` CUSTOM event, so a
 * flight recorder can pin and bundle the artifact. One instance per agent.
 */
export class ResultSpillExtension extends Extension {
  readonly name = "result_spill";
  override readonly version = packageVersion(import.meta.url);
  /**
   * Installs before default-priority extensions so its teardown, which may delete spills,
   * runs after theirs: a flight recorder has pinned (and bundled) what it references by then.
   */
  override readonly priority = 50;
  private readonly store: SpillStore;
  private readonly retention: "session" | number;
  private readonly index = new SpillIndex();
  private readonly reader: ResultReader;
  private readonly spiller: Spiller;
  private ctx?: ExtensionContext;

  constructor(options: ResultSpillOptions = {}) {
    super();
    this.store = options.store ?? new ArtifactStore(defaultStoreDir());
    this.retention = resolveRetention(options.retention);
    this.reader = new ResultReader(this.index, this.store, resolveLimits(options.limits), {
      maxOpenTables: positiveInt("maxOpenTables", options.maxOpenTables, 4),
      viewCacheBytes: positiveInt("viewCacheBytes", options.viewCacheBytes, 160_000_000),
      // Every statement the SQL sandbox runs or refuses is reported: the run shows what touched the data.
      onStatement: (data) => this.ctx?.report(HookEvent.SANDBOX_EXEC, data),
      redactor: () => this.ctx?.redactor,
    });
    this.spiller = new Spiller({
      thresholdBytes: positiveInt("thresholdBytes", options.thresholdBytes, 32_000),
      previewBytes: positiveInt("previewBytes", options.previewBytes, 1_500),
      store: this.store,
      index: this.index,
      reader: this.reader,
      holder: () => this.holder(),
      emit: (name, data, options) => this.ctx?.emit(name, data, options) ?? Promise.resolve(),
    });
  }

  override install(ctx: ExtensionContext): void {
    this.ctx = ctx;
    if (this.store.root) noteStoreDir(ctx, this.name, this.store.root);
    ctx.addMiddleware({
      name: "ResultSpill",
      afterToolExecution: (result: ToolResult) => this.spiller.afterToolExecution(result),
    });
    ctx.registerTool(readResultTool(this.reader));
  }

  /** The results this agent can read with `read_result`. */
  get spills(): readonly SpillRecord[] {
    return this.index.all();
  }

  private holder(): string {
    return `spill:${this.ctx?.info.sessionId ?? "unknown"}`;
  }

  override onSaveSession(ctx: ExtensionContext): JsonValue | undefined {
    return this.index.toState(ctx.info.sessionId);
  }

  /**
   * Restores a saved spill index: results still stored are pinned for this session and
   * readable again; expired ones (duration retention) are released and left out.
   */
  override async onLoadSession(_ctx: ExtensionContext, state: JsonValue): Promise<void> {
    const saved = readSpillState(state);
    for (const record of saved.records) {
      if (this.expired(record)) {
        await this.release(record, `spill:${saved.sessionId}`);
        continue;
      }
      if (!(await this.store.has(record.sha256))) {
        this.index.add(record);
        continue;
      }
      await this.store.pin(record.sha256, this.holder());
      this.index.add(record);
    }
  }

  private expired(record: SpillRecord): boolean {
    return typeof this.retention === "number" && Date.now() - record.spilledAt > this.retention;
  }

  private async release(record: SpillRecord, holder: string): Promise<void> {
    await this.store.unpin(record.sha256, holder);
    await this.store.deleteIfUnpinned(record.sha256);
  }

  /**
   * Closes DuckDB and the search worker, then applies retention: `"session"` releases every
   * spill (artifacts another holder pins, such as a recording, stay); a duration releases the expired.
   */
  override async close(): Promise<void> {
    await this.reader.close();
    const failures: Error[] = [];
    for (const record of this.index.all()) {
      if (this.retention !== "session" && !this.expired(record)) continue;
      try {
        await this.release(record, this.holder());
      } catch (error) {
        failures.push(error as Error);
      }
    }
    if (failures.length)
      throw new AggregateError(
        failures,
        `result_spill: ${failures.length} artifact(s) could not be released: ${failures[0]!.message}`,
      );
  }
}

import type { ArtifactRef, ToolResult } from "@harnessx/core";
import type { CustomEventName, CustomEvents } from "@harnessx/core/extension";
import { classifyJson, detectKind, isTabular, type Detection } from "./detect.js";
import { envelopeFor } from "./envelope.js";
import { textHead } from "./preview.js";
import { READ_RESULT_TOOL } from "./read-result-tool.js";
import type { ResultReader } from "./result-reader.js";
import type { ResultTable } from "./result-table.js";
import { resultIdFor, type SpillIndex, type SpillRecord } from "./spill-index.js";
import type { SpillStore } from "./options.js";

/** The `data` of each `spill` CUSTOM event (its `artifacts` names the stored result too). */
export interface SpillEventData {
  /** Name of the tool whose result was spilled. */
  toolName: string;
  /** Id of the tool call whose result was spilled. */
  toolCallId: string;
  /** Size of the spilled result, in UTF-8 bytes. */
  bytes: number;
  /** The id the model reads the result by with `read_result`. */
  resultId: string;
  /** Artifact id of the stored result. */
  sha256: string;
  /** How the content was classified. */
  kind: SpillRecord["kind"];
}

export interface SpillerOptions {
  thresholdBytes: number;
  previewBytes: number;
  store: SpillStore;
  index: SpillIndex;
  reader: ResultReader;
  /** Pin holder of this session, e.g. "spill:<sessionId>". */
  holder: () => string;
  emit: <K extends CustomEventName>(
    name: K,
    data: CustomEvents[K],
    options?: { artifacts?: readonly ArtifactRef[] },
  ) => Promise<void>;
}

/** The `data` of a `spill_failed` CUSTOM event: the result stayed whole, for this reason. */
export interface SpillFailedData {
  toolName: string;
  toolCallId: string;
  bytes: number;
  error: string;
}

declare module "@harnessx/core/extension" {
  interface CustomEvents {
    /** Emitted by `ResultSpillExtension` when a tool result was stored and replaced by an envelope. */
    spill: SpillEventData;
    /** Emitted by `ResultSpillExtension` when storing a result failed; the model got the whole result. */
    spill_failed: SpillFailedData;
  }
}

const MEDIA_TYPES: Record<SpillRecord["kind"], string> = {
  json_array_of_objects: "application/json",
  json: "application/json",
  ndjson: "application/x-ndjson",
  csv: "text/csv",
  text: "text/plain",
};

/** Replaces results over the threshold by an envelope after storing them once. */
export class Spiller {
  constructor(private readonly o: SpillerOptions) {}

  async afterToolExecution(result: ToolResult): Promise<ToolResult> {
    if (result.name === READ_RESULT_TOOL) return result;
    const bytes = utf8BytesOver(result.content, this.o.thresholdBytes);
    if (bytes === undefined) return result;
    try {
      return await this.spill(result);
    } catch (error) {
      // The run goes on with the whole result (core cuts it to maxResultChars); observers learn why.
      await this.o.emit("spill_failed", {
        toolName: result.name,
        toolCallId: result.toolCallId,
        bytes: bytes || Buffer.byteLength(result.content, "utf8"),
        error: (error as Error).message,
      });
      return result;
    }
  }

  /**
   * The work is ordered so the slow parts overlap: the query process is forked first (it boots
   * while this thread encodes the text), then its source file and the compressed artifact are
   * written side by side, the hash computed meanwhile in slices.
   */
  private async spill(result: ToolResult): Promise<ToolResult> {
    let detection = detectKind(result.content, this.o.previewBytes);
    let encoded!: (data: Buffer) => void;
    const encoding = new Promise<Buffer>((resolve) => (encoded = resolve));
    const tabular = isTabular(detection.kind)
      ? this.o.reader.loadTable(detection.kind, encoding, detection).then(
          (t) => t,
          () => undefined,
        )
      : undefined;
    const data = Buffer.from(result.content, "utf8");
    encoded(data);
    const bytes = data.byteLength;
    let stored: { sha256: string };
    try {
      stored = await this.o.store.put(data, { expectNew: true });
      await this.o.store.pin(stored.sha256, this.o.holder());
    } catch (error) {
      await (await tabular)?.close();
      throw error;
    }
    const table = await tabular;
    if (isTabular(detection.kind) && !table) detection = fallback(result.content, detection, this.o.previewBytes);
    const record: SpillRecord = {
      resultId: resultIdFor(stored.sha256),
      sha256: stored.sha256,
      toolName: result.name,
      toolCallId: result.toolCallId,
      bytes,
      kind: detection.kind,
      spilledAt: Date.now(),
      ...tableFacts(table),
      ...(detection.kind === "ndjson" ? { unreadableLines: detection.unreadableLines ?? 0 } : {}),
      ...(detection.delimiter && detection.kind === "csv" ? { delimiter: detection.delimiter } : {}),
    };
    this.o.index.add(record);
    if (table) this.o.reader.adoptTable(record.resultId, table);
    this.o.reader.adoptBytes(record, data);
    const artifact: ArtifactRef = {
      sha256: record.sha256,
      bytes,
      mediaType: MEDIA_TYPES[record.kind],
      id: record.resultId,
    };
    const event: SpillEventData = {
      toolName: record.toolName,
      toolCallId: record.toolCallId,
      bytes,
      resultId: record.resultId,
      sha256: record.sha256,
      kind: record.kind,
    };
    await this.o.emit("spill", event, { artifacts: [artifact] });
    return { ...result, content: envelopeFor(record, detection.preview), artifacts: [artifact] };
  }
}

/**
 * The UTF-8 size of `text` when over `threshold`, else undefined. A UTF-16 code unit takes 1 to 3
 * UTF-8 bytes, so the length alone settles most results without encoding them; 0 means "over,
 * size not counted yet" (the spill counts it as it encodes).
 */
function utf8BytesOver(text: string, threshold: number): number | undefined {
  if (text.length > threshold) return 0;
  if (text.length * 3 <= threshold) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > threshold ? bytes : undefined;
}

function tableFacts(table: ResultTable | undefined): Pick<SpillRecord, "rows" | "columns"> {
  return table ? { rows: table.rowCount, columns: table.columns } : {};
}

/** DuckDB could not read the content as the detected table: describe it as JSON or text instead. */
function fallback(text: string, detection: Detection, budget: number): Detection {
  if (detection.kind === "json_array_of_objects") {
    try {
      const parsed = classifyJson(JSON.parse(text), budget);
      return parsed.kind === "json_array_of_objects" ? { kind: "json", preview: parsed.preview } : parsed;
    } catch {
      // not JSON after all
    }
  }
  return { kind: "text", preview: textHead(text, budget) };
}

import type { ArtifactRef, CustomEventName, CustomEvents, ToolResult } from "@harnessx/core";
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
  toolName: string;
  toolCallId: string;
  bytes: number;
  resultId: string;
  sha256: string;
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
  emit: <K extends CustomEventName>(name: K, data: CustomEvents[K], options?: { artifacts?: readonly ArtifactRef[] }) => Promise<void>;
}

/** The `data` of a `spill_failed` CUSTOM event: the result stayed whole, for this reason. */
export interface SpillFailedData {
  toolName: string;
  toolCallId: string;
  bytes: number;
  error: string;
}

declare module "@harnessx/core" {
  interface CustomEvents {
    spill: SpillEventData;
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
    const bytes = Buffer.byteLength(result.content, "utf8");
    if (bytes <= this.o.thresholdBytes) return result;
    try {
      return await this.spill(result, bytes);
    } catch (error) {
      // The run goes on with the whole result (core cuts it to maxResultChars); observers learn why.
      await this.o.emit("spill_failed", { toolName: result.name, toolCallId: result.toolCallId, bytes, error: (error as Error).message });
      return result;
    }
  }

  private async spill(result: ToolResult, bytes: number): Promise<ToolResult> {
    const data = Buffer.from(result.content, "utf8");
    let detection = detectKind(result.content, this.o.previewBytes);
    const tabular = isTabular(detection.kind) ? this.o.reader.loadTable(detection.kind, data, detection).then((t) => t, () => undefined) : undefined;
    let stored: { sha256: string };
    try {
      stored = await this.o.store.put(data);
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
    const artifact: ArtifactRef = { sha256: record.sha256, bytes, mediaType: MEDIA_TYPES[record.kind], id: record.resultId };
    const event: SpillEventData = { toolName: record.toolName, toolCallId: record.toolCallId, bytes, resultId: record.resultId, sha256: record.sha256, kind: record.kind };
    await this.o.emit("spill", event, { artifacts: [artifact] });
    return { ...result, content: envelopeFor(record, detection.preview), artifacts: [artifact] };
  }
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

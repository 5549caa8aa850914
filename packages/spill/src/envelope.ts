import type { JsonValue } from "@harnessx/core/extension";
import { isTabular } from "./detect.js";
import type { SpillRecord } from "./spill-index.js";

/** Columns listed in an envelope at most; `schema` lists all. */
const ENVELOPE_COLUMNS = 60;

/** The one sentence that tells the model how to read more. */
export function howToRead(record: SpillRecord): string {
  const id = JSON.stringify(record.resultId);
  if (isTabular(record.kind)) {
    return `The full result is stored: answer from it with the read_result tool, e.g. {"resultId":${id},"op":"query","sql":"SELECT count(*) FROM result"} (one DuckDB SELECT over table result), or op "schema", "search" (pattern) or "slice" (unit "lines"/"chars", start, count).`;
  }
  const pretty = record.kind === "json" ? " (JSON is pretty-printed first)" : "";
  return `The full result is stored: read it with the read_result tool, e.g. {"resultId":${id},"op":"slice","unit":"lines","start":1,"count":100}${pretty}, or op "search" with a pattern, or "schema" for its structure.`;
}

/** The compact JSON that replaces a spilled result's content. */
export function envelopeFor(record: SpillRecord, preview: JsonValue): string {
  const envelope: Record<string, JsonValue> = {
    spilled: true,
    resultId: record.resultId,
    tool: record.toolName,
    bytes: record.bytes,
    kind: record.kind,
  };
  if (record.rows !== undefined) envelope.rows = record.rows;
  if (record.columns) {
    envelope.columns = record.columns.slice(0, ENVELOPE_COLUMNS).map((c) => ({ name: c.name, type: c.type }));
    if (record.columns.length > ENVELOPE_COLUMNS) envelope.moreColumns = record.columns.length - ENVELOPE_COLUMNS;
  }
  if (record.unreadableLines !== undefined) envelope.unreadableLines = record.unreadableLines;
  envelope.preview = preview;
  envelope.howToRead = howToRead(record);
  return JSON.stringify(envelope);
}

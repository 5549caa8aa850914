import { cutPoint } from "@harnessx/core";
import type { JsonValue } from "@harnessx/core/extension";
import { summarizeJson, textHead } from "./preview.js";
import type { ResultTable } from "./result-table.js";
import type { ShowText } from "./slice.js";
import type { SpillRecord } from "./spill-index.js";
import type { TextView } from "./text-view.js";

const SAMPLE_ROWS = 5;

/** What `schema` says of every result: its id, the tool that made it, its kind and size. */
function baseOf(record: SpillRecord): Record<string, JsonValue> {
  return { resultId: record.resultId, tool: record.toolName, kind: record.kind, bytes: record.bytes };
}

/** The `schema` op on a tabular result: its rows, columns and a few sample rows, within `maxChars`. */
export async function tableSchema(record: SpillRecord, table: ResultTable, maxChars: number): Promise<string> {
  const out: Record<string, JsonValue> = {
    ...baseOf(record),
    rows: table.rowCount,
    columns: table.columns.map((c) => ({ ...c })),
    sampleRows: await table.sample(SAMPLE_ROWS),
  };
  if (record.unreadableLines) out.unreadableLines = record.unreadableLines;
  return fitJson(out, maxChars);
}

/**
 * The `schema` op on a text result: its size in lines and characters, and a JSON result's
 * structure or another text's head (what `show` lets a cut show), within `maxChars`.
 */
export function textSchema(record: SpillRecord, view: TextView, show: ShowText, maxChars: number): string {
  const out: Record<string, JsonValue> = { ...baseOf(record), lines: view.lineCount, chars: view.charCount };
  const budget = Math.floor(maxChars / 2);
  if (record.kind === "json") out.structure = summarizeJson(JSON.parse(view.text(0, view.length)), budget);
  else out.head = show(0, Buffer.byteLength(textHead(view.text(0, budget * 4), Math.min(budget, 2_000))));
  return fitJson(out, maxChars);
}

/** JSON of `value`, dropping sample rows until it fits `max` characters. */
function fitJson(value: Record<string, JsonValue>, max: number): string {
  let text = JSON.stringify(value);
  const rows = value.sampleRows;
  while (text.length > max && Array.isArray(rows) && rows.length > 0) {
    rows.pop();
    text = JSON.stringify(value);
  }
  if (text.length > max && Array.isArray(value.columns)) {
    const all = value.columns.length;
    value.columns = value.columns.slice(0, 200);
    value.note = `${all} columns; the first 200 are listed. Query DESCRIBE-like details with SELECT column_name, data_type FROM information_schema.columns.`;
    text = JSON.stringify(value);
  }
  return text.length > max ? text.slice(0, cutPoint(text, max)) : text;
}

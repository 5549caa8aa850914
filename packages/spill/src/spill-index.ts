import type { JsonValue } from "@harnessx/core/extension";
import { CSV_DELIMITERS, type CsvDelimiter } from "./csv.js";
import type { ResultKind } from "./detect.js";
import type { ColumnInfo } from "./sandbox-protocol.js";

/** One spilled result, as `read_result` knows it. */
export interface SpillRecord {
  /** The id the model passes to `read_result`: `"res_"` and the first 16 hex digits of `sha256`. */
  resultId: string;
  /** Artifact id of the stored result (sha256 of its UTF-8 text). */
  sha256: string;
  /** Name of the tool that produced the result. */
  toolName: string;
  /** Id of the tool call that produced the result. */
  toolCallId: string;
  /** Size of the result, in UTF-8 bytes. */
  bytes: number;
  /** How the content was classified; tabular kinds can be queried with SQL. */
  kind: ResultKind;
  /** Row count of the loaded table; absent when the result is not tabular or was not loaded as a table. */
  rows?: number;
  /** Column names and DuckDB types of the loaded table; absent like `rows`. */
  columns?: ColumnInfo[];
  /** NDJSON only: lines that are not a JSON object (left out of the table). */
  unreadableLines?: number;
  /** CSV only: the detected field delimiter. */
  delimiter?: CsvDelimiter;
  /** Epoch milliseconds. */
  spilledAt: number;
}

export const SPILL_INDEX_FORMAT = "harnessx.spill-index";
const RESULT_ID = /^res_[0-9a-f]{16}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const KINDS: readonly ResultKind[] = ["json_array_of_objects", "json", "ndjson", "csv", "text"];

/** The id the model uses: derived from the content, so the same result twice is one entry. */
export function resultIdFor(sha256: string): string {
  return `res_${sha256.slice(0, 16)}`;
}

export function isResultId(value: unknown): value is string {
  return typeof value === "string" && RESULT_ID.test(value);
}

/** The results spilled in (or loaded into) one agent session. */
export class SpillIndex {
  private readonly records = new Map<string, SpillRecord>();

  get(resultId: string): SpillRecord | undefined {
    return this.records.get(resultId);
  }

  add(record: SpillRecord): void {
    this.records.set(record.resultId, record);
  }

  all(): SpillRecord[] {
    return [...this.records.values()];
  }

  /** Saved state: `{ format, sessionId, records }` (the host adds the version). */
  toState(sessionId: string): JsonValue {
    return {
      format: SPILL_INDEX_FORMAT,
      sessionId,
      records: this.all().map((r) => ({ ...r }) as unknown as JsonValue),
    };
  }
}

/** Reads saved state, refusing anything that is not exactly what `toState` writes. */
export function readSpillState(state: JsonValue): { sessionId: string; records: SpillRecord[] } {
  if (!state || typeof state !== "object" || Array.isArray(state)) throw new TypeError("spill state must be an object");
  if (state.format !== SPILL_INDEX_FORMAT)
    throw new TypeError(`spill state format must be "${SPILL_INDEX_FORMAT}", got ${JSON.stringify(state.format)}`);
  if (typeof state.sessionId !== "string") throw new TypeError("spill state sessionId must be a string");
  if (!Array.isArray(state.records)) throw new TypeError("spill state records must be an array");
  return { sessionId: state.sessionId, records: state.records.map((r, i) => readRecord(r, `records[${i}]`)) };
}

function readRecord(value: JsonValue, where: string): SpillRecord {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new TypeError(`${where} must be an object`);
  const v = value as Record<string, JsonValue>;
  const fail = (field: string, expected: string) =>
    new TypeError(`${where}.${field} must be ${expected}, got ${JSON.stringify(v[field])}`);
  if (!isResultId(v.resultId)) throw fail("resultId", 'a result id like "res_0123456789abcdef"');
  if (typeof v.sha256 !== "string" || !SHA256.test(v.sha256)) throw fail("sha256", "a sha256 hex digest");
  if (resultIdFor(v.sha256) !== v.resultId) throw new TypeError(`${where}: resultId does not match sha256`);
  if (typeof v.toolName !== "string") throw fail("toolName", "a string");
  if (typeof v.toolCallId !== "string") throw fail("toolCallId", "a string");
  if (!Number.isInteger(v.bytes) || (v.bytes as number) < 0) throw fail("bytes", "a non-negative integer");
  if (!KINDS.includes(v.kind as ResultKind)) throw fail("kind", KINDS.join(" | "));
  if (typeof v.spilledAt !== "number" || !Number.isFinite(v.spilledAt)) throw fail("spilledAt", "epoch milliseconds");
  if (v.rows !== undefined && (!Number.isInteger(v.rows) || (v.rows as number) < 0))
    throw fail("rows", "a non-negative integer");
  if (v.unreadableLines !== undefined && (!Number.isInteger(v.unreadableLines) || (v.unreadableLines as number) < 0))
    throw fail("unreadableLines", "a non-negative integer");
  if (v.delimiter !== undefined && !CSV_DELIMITERS.includes(v.delimiter as CsvDelimiter))
    throw fail("delimiter", CSV_DELIMITERS.map((d) => JSON.stringify(d)).join(" | "));
  if (
    v.columns !== undefined &&
    (!Array.isArray(v.columns) ||
      !v.columns.every(
        (c) =>
          c && typeof c === "object" && !Array.isArray(c) && typeof c.name === "string" && typeof c.type === "string",
      ))
  ) {
    throw fail("columns", "an array of { name, type } strings");
  }
  return {
    resultId: v.resultId,
    sha256: v.sha256,
    toolName: v.toolName,
    toolCallId: v.toolCallId,
    bytes: v.bytes as number,
    kind: v.kind as ResultKind,
    spilledAt: v.spilledAt,
    ...(v.rows !== undefined ? { rows: v.rows as number } : {}),
    ...(v.columns !== undefined
      ? { columns: (v.columns as Array<{ name: string; type: string }>).map((c) => ({ name: c.name, type: c.type })) }
      : {}),
    ...(v.unreadableLines !== undefined ? { unreadableLines: v.unreadableLines as number } : {}),
    ...(v.delimiter !== undefined ? { delimiter: v.delimiter as CsvDelimiter } : {}),
  };
}

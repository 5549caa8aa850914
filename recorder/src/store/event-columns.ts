/** A field's DuckDB type: a type name, a list of one type, or a struct of named fields. */
type ColumnShape = string | readonly [ColumnShape] | { readonly [field: string]: ColumnShape };

/** The fields summaries aggregate, typed (`typed_events`). */
export const TYPED_EVENT_SHAPE = {
  runId: "VARCHAR",
  seq: "BIGINT",
  kind: "VARCHAR",
  payloadRef: { bytes: "BIGINT" },
  redacted: ["VARCHAR"],
  payload: { data: { bytes: "BIGINT" } },
  attrs: {
    toolName: "VARCHAR",
    model: "VARCHAR",
    outcome: "VARCHAR",
    isError: "BOOLEAN",
    durationMs: "DOUBLE",
    inputTokens: "BIGINT",
    outputTokens: "BIGINT",
    cacheReadTokens: "BIGINT",
    cacheWriteTokens: "BIGINT",
    cost: { usd: "DOUBLE" },
    toolCalls: ["VARCHAR"],
    name: "VARCHAR",
    count: "BIGINT",
  },
} as const satisfies ColumnShape;

/** Every field of an event line, the open ones as JSON (`raw_events`). */
export const RAW_EVENT_SHAPE = {
  runId: "VARCHAR",
  seq: "BIGINT",
  ts: "BIGINT",
  kind: "VARCHAR",
  spanId: "VARCHAR",
  parentSpanId: "VARCHAR",
  attrs: "JSON",
  payload: "JSON",
  payloadRef: { sha256: "VARCHAR", bytes: "BIGINT", preview: "VARCHAR" },
  redacted: "JSON",
} as const satisfies ColumnShape;

/** The shape as `json_transform` takes it (a JSON structure). */
export function jsonStructure(shape: { readonly [field: string]: ColumnShape }): string {
  return JSON.stringify(shape);
}

/** The shape as `read_ndjson(columns = ...)` takes it: a struct literal of DuckDB type names. */
export function ndjsonColumns(shape: { readonly [field: string]: ColumnShape }): string {
  return `{${Object.entries(shape)
    .map(([field, type]) => `'${field}': '${duckType(type)}'`)
    .join(", ")}}`;
}

function duckType(shape: ColumnShape): string {
  if (typeof shape === "string") return shape;
  if (Array.isArray(shape)) return `${duckType(shape[0])}[]`;
  return `STRUCT(${Object.entries(shape)
    .map(([field, type]) => `${field} ${duckType(type)}`)
    .join(", ")})`;
}

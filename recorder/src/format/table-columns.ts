/** A column's DuckDB type (the Parquet files hold the same, JSON as text). */
export type ColumnType = "VARCHAR" | "BIGINT" | "DOUBLE" | "BOOLEAN" | "TIMESTAMP_MS" | "JSON" | "VARCHAR[]";

/** One column of a table `trace query` reads. */
export interface TableColumn {
  /** Its SQL name. */
  readonly name: string;
  /** Its type. */
  readonly type: ColumnType;
  /** What `trace query --help` adds after the name (the values a column takes); JSON columns say so by themselves. */
  readonly note?: string;
  /** Added after the first dataset version: files written before it lack the column, read as NULL. */
  readonly added?: true;
}

const column = <N extends string>(name: N, type: ColumnType, note?: string): TableColumn & { readonly name: N } => ({
  name,
  type,
  ...(note ? { note } : {}),
});
/** A column files written before it lack (see `TableColumn.added`). */
const added = <N extends string>(name: N, type: ColumnType, note?: string) => ({
  ...column(name, type, note),
  added: true as const,
});

/**
 * The columns of every table SQL reads over recordings, bundles and datasets, in order: declared
 * here only. The DDL, the typed views over Parquet files (span cache, datasets), the staging of
 * mapped spans and `trace query --help` are generated from it; recorder/README.md documents
 * what each column means.
 */
const DECLARED = {
  runs: [
    column("run_id", "VARCHAR"),
    column("trace_id", "VARCHAR"),
    column("agent", "VARCHAR"),
    column("framework", "VARCHAR"),
    column("session_id", "VARCHAR"),
    column("status", "VARCHAR"),
    column("detail", "VARCHAR", "full|summary"),
    column("started_at", "TIMESTAMP_MS"),
    column("ended_at", "TIMESTAMP_MS"),
    column("duration_ms", "BIGINT"),
    column("host", "VARCHAR"),
    column("service", "VARCHAR"),
    column("provider", "VARCHAR"),
    column("models", "JSON"),
    column("events", "BIGINT"),
    column("model_calls", "BIGINT"),
    column("tool_calls", "BIGINT"),
    column("errors", "BIGINT"),
    column("dropped", "BIGINT"),
    column("input_tokens", "BIGINT"),
    column("output_tokens", "BIGINT"),
    column("cost_usd", "DOUBLE"),
    column("unpriced_calls", "BIGINT"),
    column("error_name", "VARCHAR"),
    column("error_message", "VARCHAR"),
    column("error_code", "VARCHAR"),
    column("recorder_version", "VARCHAR"),
    added("metadata", "JSON"),
    added("tags", "VARCHAR[]"),
  ],
  events: [
    column("run_id", "VARCHAR"),
    column("seq", "BIGINT"),
    column("ts", "TIMESTAMP_MS"),
    column("ts_ms", "BIGINT"),
    column("kind", "VARCHAR"),
    column("span_id", "VARCHAR"),
    column("parent_span_id", "VARCHAR"),
    column("tool_name", "VARCHAR"),
    column("tool_call_id", "VARCHAR"),
    column("attrs", "JSON"),
    column("payload", "JSON"),
    column("payload_sha256", "VARCHAR"),
    column("payload_bytes", "BIGINT"),
    column("payload_preview", "VARCHAR"),
    column("redacted", "JSON"),
  ],
  spans: [
    column("run_id", "VARCHAR"),
    column("trace_id", "VARCHAR"),
    column("span_id", "VARCHAR"),
    column("parent_span_id", "VARCHAR"),
    column("kind", "VARCHAR", "run|model|tool"),
    column("name", "VARCHAR"),
    column("start_ts", "TIMESTAMP_MS"),
    column("end_ts", "TIMESTAMP_MS"),
    column("duration_ms", "DOUBLE"),
    column("status", "VARCHAR", "ok|error|open"),
    column("input_tokens", "BIGINT"),
    column("output_tokens", "BIGINT"),
    column("cost_usd", "DOUBLE"),
    column("events", "BIGINT"),
    column("attrs", "JSON"),
  ],
  artifacts: [
    column("sha256", "VARCHAR"),
    column("run_id", "VARCHAR"),
    column("seq", "BIGINT"),
    column("kind", "VARCHAR", "payload|extension"),
    column("bytes", "BIGINT"),
    column("stored_bytes", "BIGINT"),
    column("present", "BOOLEAN"),
    column("preview", "VARCHAR"),
  ],
} as const satisfies Record<string, readonly TableColumn[]>;

/** A table SQL reads over recordings. */
export type TableName = keyof typeof DECLARED;

/**
 * The columns of every table SQL reads over recordings, bundles and datasets, in order (see
 * `DECLARED`): what a tool reading the Parquet files or the tables can rely on.
 */
export const TABLE_COLUMNS: Readonly<Record<TableName, readonly TableColumn[]>> = DECLARED;
/** The tables, in the order `trace query --help` lists them. */
export const TABLE_NAMES = Object.keys(TABLE_COLUMNS) as TableName[];
/** The name of one of a table's columns. */
export type ColumnName<T extends TableName> = (typeof DECLARED)[T][number]["name"];

/** A table's columns with their names as literal types, for code that fills each by name. */
export function declaredColumns<T extends TableName>(table: T): (typeof DECLARED)[T] {
  return DECLARED[table];
}

/** `CREATE TABLE <table> (<column> <type>, ...)`. */
export function createTableSql(table: TableName): string {
  return `CREATE TABLE ${table} (${TABLE_COLUMNS[table].map((c) => `${c.name} ${c.type}`).join(", ")})`;
}

/** The table's column names, comma-separated, from `from` on (a name of the table) or all. */
export function columnList(table: TableName, from?: string): string {
  const columns: readonly TableColumn[] = TABLE_COLUMNS[table];
  const start = from === undefined ? 0 : columns.findIndex((c) => c.name === from);
  if (start < 0) throw new Error(`${table} has no column ${from}`);
  return columns
    .slice(start)
    .map((c) => c.name)
    .join(", ");
}

/**
 * A select list that gives each column its declared type from the expression `sourceOf` names
 * for it (`run_id::VARCHAR AS run_id`, ...): a view over files whose types may be looser.
 */
export function typedSelect(table: TableName, sourceOf: (column: TableColumn) => string): string {
  return TABLE_COLUMNS[table].map((c) => `${sourceOf(c)}::${c.type} AS ${c.name}`).join(", ");
}

/** The select list of a table whose every column has an expression, in the declared order. */
export function selectAs<T extends TableName>(table: T, expressions: Readonly<Record<ColumnName<T>, string>>): string {
  return TABLE_COLUMNS[table]
    .map((c) => `${(expressions as Readonly<Record<string, string>>)[c.name]} AS ${c.name}`)
    .join(", ");
}

/** One table's columns as `trace query --help` lists them, wrapped at `width` after a 12-column indent. */
export function tableHelp(table: TableName, width = 100): string {
  const words = TABLE_COLUMNS[table].map((c: TableColumn) => {
    const note = c.note ?? (c.type === "JSON" ? "JSON" : undefined);
    return `${c.name}${note ? ` (${note})` : ""}`;
  });
  const lines: string[] = [];
  let line = "";
  for (const [i, word] of words.entries()) {
    const piece = i < words.length - 1 ? `${word},` : word;
    if (line && line.length + 1 + piece.length > width - 12) {
      lines.push(line);
      line = piece;
    } else line = line ? `${line} ${piece}` : piece;
  }
  lines.push(line);
  return `  ${table.padEnd(10)}${lines.join(`\n${" ".repeat(12)}`)}`;
}

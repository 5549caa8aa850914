import Table from "cli-table3";
import stringWidth from "string-width";
import type { Colors } from "./colors.js";
import { stringifyJson, toJsonSafe } from "./json.js";
import { terminalSafe } from "./terminal-safe.js";

/** A column of a printed table: where its value comes from and how it looks. */
export interface Column<Row> {
  header: string;
  /** The row's value, as printed in JSON and CSV. */
  value: (row: Row) => unknown;
  /** How the value looks in a table; default `String(value)`, `-` for null. */
  format?: (row: Row) => string;
  align?: "left" | "right";
}

export type RowFormat = "table" | "json" | "csv";

/** Options of `renderRows`. */
export interface RenderRowsOptions {
  /** Default "table". */
  format?: RowFormat;
  /** Borders and header colours when the output is a terminal; a plain aligned table otherwise. Default false. */
  terminal?: boolean;
  colors?: Colors;
  /** JSON keys of each column; default the header. */
  keys?: string[];
}

const PLAIN_CHARS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "  ",
} as const;

/** A cell's text: values from recordings and SQL are untrusted, so control sequences go. */
function cellText(value: unknown): string {
  const plain = toJsonSafe(value);
  return terminalSafe(typeof plain === "object" ? JSON.stringify(plain) : String(plain));
}

function display(value: unknown): string {
  return value === null || value === undefined ? "-" : cellText(value);
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Renders rows as a table (bordered on a terminal, plain and aligned otherwise), JSON or CSV. */
export function renderRows<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: RenderRowsOptions = {},
): string {
  const format = options.format ?? "table";
  const keys = options.keys ?? columns.map((c) => c.header);
  if (format === "json") {
    return stringifyJson(rows.map((row) => Object.fromEntries(columns.map((c, i) => [keys[i], c.value(row)]))));
  }
  if (format === "csv") {
    const lines = [keys.map(csvCell).join(",")];
    for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(","));
    return lines.join("\n");
  }
  const colors = options.colors;
  const head = columns.map((c) => (colors ? colors.bold(terminalSafe(c.header)) : terminalSafe(c.header)));
  const body = rows.map((row) => columns.map((c) => (c.format ? c.format(row) : display(c.value(row)))));
  const aligns = columns.map((c) => c.align ?? "left");
  // cli-table3 lays out in time quadratic in the rows (5 s for 5,000): a long listing, or any
  // plain one of single-line cells, is aligned here, as cli-table3 would align it.
  if (
    (!options.terminal || rows.length > MAX_BORDERED_ROWS) &&
    body.every((cells) => cells.every((c) => !c.includes("\n")))
  )
    return alignedText(head, body, aligns);
  const table = new Table({
    head,
    colAligns: aligns,
    style: options.terminal
      ? { head: [], border: [], compact: true }
      : { head: [], border: [], "padding-left": 0, "padding-right": 0 },
    ...(options.terminal ? {} : { chars: PLAIN_CHARS }),
  });
  for (const cells of body) table.push(cells);
  return table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

/** Rows past which a terminal gets the plain table too: borders help no one read thousands of rows. */
const MAX_BORDERED_ROWS = 1000;

/** Cells padded to their column's width (as the terminal shows it: colours left out, wide characters counted twice), two spaces apart. */
function alignedText(
  head: readonly string[],
  body: readonly string[][],
  aligns: readonly ("left" | "right")[],
): string {
  const widths = head.map(stringWidth);
  const bodyWidths = body.map((cells) => cells.map(stringWidth));
  for (const cells of bodyWidths) for (let i = 0; i < cells.length; i++) widths[i] = Math.max(widths[i]!, cells[i]!);
  const line = (cells: readonly string[], cellWidths: readonly number[]) =>
    cells
      .map((cell, i) => {
        const pad = " ".repeat(widths[i]! - cellWidths[i]!);
        return aligns[i] === "right" ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd();
  return [line(head, head.map(stringWidth)), ...body.map((cells, r) => line(cells, bodyWidths[r]!))].join("\n");
}

/** Columns straight from object keys, for results whose shape is only known at run time (SQL). */
export function columnsFromKeys(keys: readonly string[]): Column<Record<string, unknown>>[] {
  return keys.map((key) => ({ header: key, value: (row: Record<string, unknown>) => row[key] }));
}

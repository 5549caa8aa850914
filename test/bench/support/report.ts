// How a benchmark reports: rows of (measure, harnessx, anchor, ratio, aim, pass), printed and,
// under `npm run bench`, appended to the file the runner names so it can print one table.
import { appendFileSync } from "node:fs";

/** `BENCH_SMALL=1` (CI): every bench runs once at a small size so none rots; figures mean nothing then. */
export const SMALL = process.env.BENCH_SMALL === "1";

/** The full-size value, or the small one under `BENCH_SMALL=1`. */
export function sized<T>(full: T, small: T): T {
  return SMALL ? small : full;
}

/** What a row must reach: its ratio (harnessx / anchor) or its own value, compared with `target`. */
export interface Aim {
  on: "ratio" | "value";
  op: "<=" | ">=" | "<";
  target: number;
}

export interface BenchRow {
  measure: string;
  unit: string;
  harnessx: number;
  /** The same work done by the reference in the same process, when there is one. */
  anchor?: number;
  anchorName?: string;
  aim?: Aim;
  note?: string;
}

export interface ReportedRow extends BenchRow {
  bench: string;
  ratio: number | null;
  pass: boolean | null;
  small: boolean;
}

function meets(value: number, aim: Aim): boolean {
  if (!Number.isFinite(value)) return false;
  return aim.op === "<=" ? value <= aim.target : aim.op === "<" ? value < aim.target : value >= aim.target;
}

export function aimText(aim: Aim | undefined): string {
  return aim ? `${aim.on === "ratio" ? "ratio" : "value"} ${aim.op} ${aim.target}` : "";
}

/** Prints the rows and hands them to the runner (`BENCH_RESULTS`). */
export function report(bench: string, rows: BenchRow[]): ReportedRow[] {
  const out = rows.map((row): ReportedRow => {
    const ratio = row.anchor !== undefined && row.anchor !== 0 ? row.harnessx / row.anchor : null;
    const checked = row.aim ? (row.aim.on === "ratio" ? ratio : row.harnessx) : null;
    return { ...row, bench, ratio, pass: row.aim && checked !== null ? meets(checked, row.aim) : null, small: SMALL };
  });
  for (const row of out) {
    const anchor = row.anchor !== undefined ? `  vs ${row.anchorName ?? "anchor"} ${num(row.anchor)}` : "";
    const ratio = row.ratio !== null ? `  ratio ${num(row.ratio)}` : "";
    const verdict = row.pass === null ? "" : `  aim ${aimText(row.aim)}: ${row.pass ? "pass" : "FAIL"}`;
    console.log(
      `  ${row.measure}: ${num(row.harnessx)} ${row.unit}${anchor}${ratio}${verdict}${row.note ? `  (${row.note})` : ""}`,
    );
  }
  if (process.env.BENCH_RESULTS)
    appendFileSync(process.env.BENCH_RESULTS, out.map((row) => `${JSON.stringify(row)}\n`).join(""));
  return out;
}

export function num(value: number): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

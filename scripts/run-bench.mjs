#!/usr/bin/env node
// Runs every benchmark in test/bench (or those whose file name contains an argument), one after
// another, each in its own process beside its anchor; prints one table and writes
// bench-results.json. `--small` (or BENCH_SMALL=1) runs each once at a small size (CI): figures
// are then only proof that the bench still works.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Table from "cli-table3";

const root = new URL("..", import.meta.url).pathname;
const dir = join(root, "test", "bench");
const args = process.argv.slice(2);
const small = args.includes("--small") || process.env.BENCH_SMALL === "1";
const outArg = args.find((a) => a.startsWith("--out="));
const out = outArg ? outArg.slice("--out=".length) : join(root, "bench-results.json");
const filters = args.filter((a) => !a.startsWith("--"));
const benches = readdirSync(dir).filter(
  (f) => f.endsWith(".bench.ts") && (filters.length === 0 || filters.some((x) => f.includes(x))),
);

const scratch = mkdtempSync(join(tmpdir(), "hx-bench-results-"));
const rowsFile = join(scratch, "rows.ndjson");
writeFileSync(rowsFile, "");
const crashed = [];
for (const bench of benches) {
  console.log(`\n== ${bench}${small ? " (small)" : ""}`);
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --conditions=harnessx-source`.trim(),
    BENCH_RESULTS: rowsFile,
    ...(small ? { BENCH_SMALL: "1" } : {}),
  };
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(dir, bench)], {
    cwd: root,
    stdio: "inherit",
    env,
  });
  if (run.status !== 0) crashed.push(bench);
}
const rows = readFileSync(rowsFile, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));
rmSync(scratch, { recursive: true, force: true });

const num = (v) =>
  v === null || v === undefined
    ? ""
    : v.toLocaleString("en-US", {
        maximumFractionDigits: Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : Math.abs(v) >= 1 ? 2 : 3,
      });
const aim = (a) => (a ? `${a.on} ${a.op} ${a.target}` : "");
const table = new Table({
  head: ["measure", "harnessx", "anchor", "ratio", "aim", "pass"],
  colWidths: [58, 16, 24, 8, 16, 6],
  wordWrap: true,
  style: { head: [], border: [] },
});
for (const row of rows) {
  table.push([
    row.measure,
    `${num(row.harnessx)} ${row.unit}`,
    row.anchor === undefined ? "" : `${num(row.anchor)} ${row.unit} (${row.anchorName ?? "anchor"})`,
    num(row.ratio),
    aim(row.aim),
    row.pass === null ? "" : row.pass ? "pass" : "FAIL",
  ]);
}
console.log(`\n${table.toString()}`);
const failing = rows.filter((r) => r.pass === false).length;
console.log(
  `${rows.length} measures from ${benches.length} benches; ${rows.filter((r) => r.pass).length} aims met, ${failing} missed${small ? " (small sizes: figures are not meaningful)" : ""}${crashed.length ? `; CRASHED: ${crashed.join(", ")}` : ""}`,
);
writeFileSync(
  out,
  `${JSON.stringify({ machine: { node: process.version, cpus: (await import("node:os")).cpus().length }, small, date: new Date().toISOString(), crashed, rows }, null, 2)}\n`,
);
console.log(`results: ${out}`);
process.exit(crashed.length ? 1 : 0);

#!/usr/bin/env node
// Runs every benchmark in test/bench (or those whose name contains an argument), one after another.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const dir = join(root, "test", "bench");
const filters = process.argv.slice(2);
const benches = readdirSync(dir).filter((f) => f.endsWith(".bench.ts") && (filters.length === 0 || filters.some((x) => f.includes(x))));
let failed = 0;
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(dir, bench)], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

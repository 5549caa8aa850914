// Every benchmark runs once at its small size (BENCH_SMALL=1) so none rots between releases.
// Timings are not asserted (they mean nothing at these sizes on a shared machine); what is
// asserted: each bench finishes, reports its rows, and every row carries a finite figure.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

const root = new URL("../..", import.meta.url).pathname;

test("npm run bench --small: every bench reports finite figures and its aims", { timeout: 900_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "hx-bench-small-"));
  try {
    const out = join(dir, "bench-results.json");
    const run = spawnSync(process.execPath, [join(root, "scripts", "run-bench.mjs"), "--small", `--out=${out}`], {
      cwd: root,
      encoding: "utf8",
      timeout: 880_000,
    });
    assert.equal(run.status, 0, `a bench crashed:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
    const results = JSON.parse(readFileSync(out, "utf8")) as {
      small: boolean;
      crashed: string[];
      rows: Array<{
        bench: string;
        measure: string;
        harnessx: number;
        anchor?: number;
        aim?: unknown;
        pass: boolean | null;
      }>;
    };
    assert.equal(results.small, true);
    assert.deepEqual(results.crashed, []);
    const benches = readdirSync(join(root, "test", "bench"))
      .filter((f) => f.endsWith(".bench.ts"))
      .map((f) => f.replace(/\.bench\.ts$/, ""));
    for (const bench of benches)
      assert.ok(
        results.rows.some((row) => row.bench === bench),
        `${bench} reported no rows`,
      );
    for (const row of results.rows) {
      assert.ok(Number.isFinite(row.harnessx), `${row.measure}: ${row.harnessx}`);
      if (row.anchor !== undefined)
        assert.ok(Number.isFinite(row.anchor) && row.anchor > 0, `${row.measure}: anchor ${row.anchor}`);
      if (row.aim !== undefined) assert.equal(typeof row.pass, "boolean", `${row.measure}: the aim was not judged`);
    }
    assert.match(
      run.stdout,
      /│ measure +│ harnessx +│ anchor +│ ratio +│ aim +│ pass/,
      "one table with the issue's columns",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

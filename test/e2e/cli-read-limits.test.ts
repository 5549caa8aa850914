// Small inputs that ask for huge memory (issue 33, item 4): every reading command refuses each
// with its typed exit code and one line naming the limit, within a memory ceiling measured in
// the child (its own peak RSS). Before the limits: a 250 MB event line took `trace query` to
// 2.7 GB, a 210 MB manifest 0.9-1.5 GB in every reader, a 500 MB one-line journal 1 GB then a
// misleading error, an 11 KB Parquet file 1.8 GB and exit 1 (docs/reliability.md has the table).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordSupportRun, runTrace, type CliRun } from "@harnessx/cli/test-support";
import {
  membersOf,
  rewriteRunsFile,
  withDenseEventLines,
  withHugeEventLine,
  withHugeManifest,
  writeRunWithHugeLine,
  writeTar,
  type TarMember,
} from "@harnessx/recorder/test-support";

const cli = cliWorkspace("hx-read-limits-");
const MB = 1024 * 1024;
/** Baseline of a CLI that loads DuckDB (~100 MB) plus the one member a bundle reader inflates (250 MB here, 256 MiB at most). */
const MEMBER_CEILING = 450 * MB;
/** A reader that refuses before inflating or reading anything large. */
const SMALL_CEILING = 200 * MB;

let good: TarMember[];
before(async () => {
  const { runId } = await recordSupportRun(cli.store, { inlinePayloadBytes: 200 });
  assert.equal((await cli.trace("export", runId, "-o", join(cli.work, "good.tar"))).code, 0);
  assert.equal((await cli.trace("export", "--format", "parquet", "--all", "--out", join(cli.work, "dataset"))).code, 0);
  good = await membersOf(join(cli.work, "good.tar"));
});
after(() => cli.cleanup());

const READERS: Array<[string, (run: string) => string[]]> = [
  ["verify", (b) => ["verify", b]],
  ["show", (b) => ["show", b, "--full"]],
  ["summary", (b) => ["summary", b]],
  ["query", (b) => ["query", b, "SELECT count(*) FROM events"]],
  ["report", (b) => ["report", b, "-o", join(cli.work, "report.html"), "--force"]],
  ["replay", (b) => ["replay", b]],
  ["scrub", (b) => ["scrub", b, "-o", join(cli.work, "scrubbed.tar"), "--force"]],
  ["convert", (b) => ["convert", b, "--to", "otlp", "-o", join(cli.work, "trace.jsonl"), "--force"]],
  ["view", (b) => ["view", b, "tools"]],
  ["diff", (b) => ["diff", b, b]],
];

async function refused(
  t: test.TestContext,
  label: string,
  args: string[],
  message: RegExp,
  ceiling: number,
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  const r = await runTrace(args, { cwd: cli.work, measureMemory: true, timeoutMs: 60_000, env });
  t.diagnostic(
    `${label}: exit ${r.code}, peak RSS ${(r.peakRssBytes! / MB).toFixed(0)} MB; ${r.stderr.trim().slice(0, 160)}`,
  );
  assert.equal(r.code, 4, `${label}: ${r.stderr}`);
  assert.match(r.stderr, message, label);
  assert.equal(r.stderr.trim().split("\n").length, 1, `${label}: one line on stderr`);
  assert.ok(r.peakRssBytes! < ceiling, `${label}: peak RSS ${(r.peakRssBytes! / MB).toFixed(0)} MB`);
  return r;
}

describe("bundles", () => {
  test("one 250 MB event line, every size declared honestly (a 20 KB file): exit 4 naming the line and the 16 MiB limit", async (t) => {
    const file = join(cli.work, "long-line.tar");
    await writeTar(file, await withHugeEventLine(good, 250_000_000));
    t.diagnostic(`bundle: ${(readFileSync(file).length / 1024).toFixed(0)} KB`);
    for (const [name, args] of READERS)
      await refused(
        t,
        name,
        args(file),
        /member "events\.ndjson\.zst" is not valid: line 1 is 250,00\d,\d{3} bytes, longer than the 16,777,216 a reader takes/,
        MEMBER_CEILING,
      );
  });

  test("every event line 8 MiB of empty objects (a small file; JSON.parse makes each a quarter of a gigabyte): refused undecoded", async (t) => {
    const file = join(cli.work, "dense.tar");
    await writeTar(file, await withDenseEventLines(good, 8 * MB));
    t.diagnostic(`bundle: ${(readFileSync(file).length / 1024).toFixed(0)} KB`);
    for (const [name, args] of READERS)
      await refused(
        t,
        name,
        args(file),
        /member "events\.ndjson\.zst" is not valid: line 1 \(8,\d{3},\d{3} bytes\) holds more than the 2,097,152 JSON values/,
        MEMBER_CEILING,
      );
  });

  test("a run whose events take more memory than HARNESSX_READ_MEMORY: exit 4 naming it (here set to 1 MB)", async (t) => {
    await refused(
      t,
      "replay",
      ["replay", join(cli.work, "good.tar")],
      /more than the 1 MiB a reader holds \(HARNESSX_READ_MEMORY=4GB raises it\)/,
      SMALL_CEILING,
      { HARNESSX_READ_MEMORY: "1MiB" },
    );
  });

  test("a 210 MB manifest: refused from its tar header, unread, by every reader", async (t) => {
    const file = join(cli.work, "huge-manifest.tar");
    await writeTar(file, withHugeManifest(good, 210_000_000));
    for (const [name, args] of READERS)
      await refused(
        t,
        name,
        args(file),
        /member "manifest\.json" is stored as 210,\d{3},\d{3} bytes, more than the 33,554,432 allowed; refused unread/,
        SMALL_CEILING,
      );
  });
});

describe("stores", () => {
  test("a sealed segment (30 KB) holding a 250 MB line, its sidecar honest: the segment is refused by every reader, SQL ones included", async (t) => {
    const store = join(cli.work, "hostile-store");
    await writeRunWithHugeLine(store, "run_long_line", 250_000_000);
    const readers = [
      ...READERS.filter(([name]) => !["verify", "diff"].includes(name)),
      [
        "export",
        () => ["export", "run_long_line", "-o", join(cli.work, "out.tar"), "--force"],
      ] as (typeof READERS)[number],
    ];
    for (const [name, args] of readers) {
      await refused(
        t,
        name,
        ["--store", store, ...args("run_long_line")],
        /segments\/000001\.ndjson\.zst is corrupt: line 2 is 250,000,\d{3} bytes, longer than the 16,777,216/,
        MEMBER_CEILING,
      );
    }
  });
});

describe("journals", () => {
  test("a 500 MB journal of one line: trace resume stops reading at the 64 MiB line limit, exit 4 naming it and how to raise it", async (t) => {
    const journals = join(cli.work, "journals");
    mkdirSync(journals);
    const fd = openSync(join(journals, "run_one_line.ndjson"), "w");
    writeSync(fd, '{"v":1,"phase":"run_start","runId":"run_one_line","input":"');
    const chunk = Buffer.alloc(16 * MB, 0x61);
    for (let i = 0; i < 30; i++) writeSync(fd, chunk);
    writeSync(fd, '"}\n');
    closeSync(fd);
    const module = join(cli.work, "agent.mjs");
    writeFileSync(
      module,
      `import { Agent, FileDurableStore, ScriptedProvider } from ${JSON.stringify(import.meta.resolve("@harnessx/core"))};
export function createAgent() { return new Agent({ provider: new ScriptedProvider([{ text: "done" }]), durable: { store: new FileDurableStore(${JSON.stringify(journals)}) } }); }
`,
    );
    await refused(
      t,
      "resume",
      ["resume", "run_one_line", "--agent", module],
      /line 1 of the journal of run_one_line is longer than the 67,108,864 bytes a reader takes: refused before reading the rest of it \(a FileDurableStore takes longer lines with \{ maxLineBytes \}\)/,
      256 * MB,
    );
  });
});

describe("datasets", () => {
  test("a runs file (tens of kilobytes) whose agent is a 300 MB string: DuckDB stops at its memory limit, exit 4 naming it and HARNESSX_SQL_MEMORY", async (t) => {
    const dataset = join(cli.work, "dataset-string");
    assert.equal((await cli.trace("export", "--format", "parquet", "--all", "--out", dataset)).code, 0);
    await rewriteRunsFile(dataset, "SELECT * REPLACE (repeat('a', 300000000) AS agent) FROM runs");
    const limit = /DuckDB needed more memory than the 512MiB a reader gives it \(HARNESSX_SQL_MEMORY=4GB raises it/;
    await refused(t, "ls --dataset", ["ls", "--dataset", dataset], limit, 300 * MB);
    await refused(t, "query --dataset", ["query", "--dataset", dataset, "SELECT agent FROM runs"], limit, 300 * MB);
  });

  test("a runs file holding ten million rows (the exporter writes one): refused from the files' footers, exit 4", async (t) => {
    const dataset = join(cli.work, "dataset-rows");
    assert.equal((await cli.trace("export", "--format", "parquet", "--all", "--out", dataset)).code, 0);
    await rewriteRunsFile(dataset, "SELECT runs.* FROM runs, range(10000000)");
    const rows = /the runs table of .* holds 10000000 rows in 1 file\(s\): the exporter writes one run per file/;
    await refused(t, "ls --dataset", ["ls", "--dataset", dataset], rows, SMALL_CEILING);
    await refused(
      t,
      "query --dataset",
      ["query", "--dataset", dataset, "SELECT count(*) FROM runs"],
      rows,
      SMALL_CEILING,
    );
  });

  test("a runs file without the dataset's columns: exit 4 (files made elsewhere), not an unexpected error", async (t) => {
    const dataset = join(cli.work, "dataset-columns");
    assert.equal((await cli.trace("export", "--format", "parquet", "--all", "--out", dataset)).code, 0);
    await rewriteRunsFile(dataset, "SELECT run_id, agent FROM runs");
    const columns = /the runs files of .* do not hold the dataset's columns \(Binder Error/;
    await refused(t, "ls --dataset", ["ls", "--dataset", dataset], columns, SMALL_CEILING);
    await refused(
      t,
      "query --dataset",
      ["query", "--dataset", dataset, "SELECT count(*) FROM runs"],
      columns,
      SMALL_CEILING,
    );
  });

  test("a runs file whose start time is not a time: trace ls (its own SQL) says the runs table cannot be read, exit 4", async (t) => {
    const dataset = join(cli.work, "dataset-types");
    assert.equal((await cli.trace("export", "--format", "parquet", "--all", "--out", dataset)).code, 0);
    await rewriteRunsFile(dataset, "SELECT * REPLACE ('not a time' AS started_at) FROM runs");
    await refused(
      t,
      "ls --dataset",
      ["ls", "--dataset", dataset],
      /the runs table of .* cannot be read \(query failed: Conversion Error/,
      SMALL_CEILING,
    );
  });
});

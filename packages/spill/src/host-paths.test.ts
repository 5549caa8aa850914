import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { HostPaths } from "./host-paths.js";
import { hostDirs, leakedDirs } from "./test-support/host-leaks.js";
import { SpillHarness, tempStore } from "./test-support/spill-harness.js";

describe("HostPaths replaces whole directories", () => {
  const paths = new HostPaths([
    { path: "/srv/home", label: "~" },
    { path: "/var/tmp", label: "<tmp>" },
    { path: "/var/tmp/harnessx-spill-abc", label: "<sandbox>" },
    { path: "/", label: "<root>" },
  ]);

  test("only whole path components, at any position, quoted or not", () => {
    assert.equal(
      paths.scrub(`/srv/home/.ssh "/srv/home" /srv/homework /x/srv/home [/srv/home/]`),
      `~/.ssh "~" /srv/homework /x/srv/home [~/]`,
    );
  });

  test("the longest directory first; a filesystem root alone never", () => {
    assert.equal(
      paths.scrub("/var/tmp/harnessx-spill-abc/db-1/swap and /var/tmp/x and /etc/passwd"),
      "<sandbox>/db-1/swap and <tmp>/x and /etc/passwd",
    );
  });
});

describe("read_result never tells the model a host directory", () => {
  const tmp = tempStore();
  let h: SpillHarness;
  let resultId: string;
  const dirs = () => hostDirs([tmp.root]);
  const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}` }));

  before(async () => {
    h = new SpillHarness(tmp.store, { thresholdBytes: 1_000 });
    resultId = (await h.spill(JSON.stringify(rows))).resultId;
  });
  after(async () => {
    await h.close();
    tmp.cleanup();
  });

  async function hidden(sql: string, expect: { isError: boolean }): Promise<string> {
    const result = await h.read({ resultId, op: "query", sql });
    assert.equal(result.isError, expect.isError, result.content);
    assert.deepEqual(leakedDirs(result.content, sql, dirs()), [], result.content);
    return result.content;
  }

  test("SELECT current_setting('temp_directory') names no host directory", async () => {
    const content = await hidden("SELECT current_setting('temp_directory') AS t", { isError: false });
    assert.doesNotMatch(content, new RegExp(tmpdir()));
  });

  // Found by read-result.fuzz.test.ts: DuckDB derives the secret directory from $HOME.
  test("SELECT current_setting('secret_directory') names no home directory", async () => {
    assert.doesNotMatch(
      await hidden("SELECT current_setting('secret_directory') AS s", { isError: false }),
      new RegExp(`${homedir()}/`),
    );
  });

  test("current_setting('allowed_directories') shows the sandbox's own directory as <sandbox>", async () => {
    assert.match(await hidden("SELECT current_setting('allowed_directories') AS a", { isError: false }), /<sandbox>\//);
  });

  test("SELECT * FROM duckdb_settings() and pg_catalog.pg_settings name no host directory", async () => {
    await hidden("SELECT name, value FROM duckdb_settings() ORDER BY name LIMIT 200 OFFSET 0", { isError: false });
    await hidden("SELECT name, value FROM duckdb_settings() ORDER BY name LIMIT 200 OFFSET 100", { isError: false });
    await hidden("SELECT name, setting FROM pg_catalog.pg_settings WHERE setting LIKE '%/%'", { isError: false });
  });

  test("an extension error (duckdb_extensions lists the extension directory) names no home directory", async () => {
    const content = await hidden("SELECT * FROM duckdb_extensions()", { isError: true });
    assert.doesNotMatch(content, new RegExp(`${homedir()}/`));
  });

  test("a file error on a path under the working directory shows it as <cwd>", async () => {
    const content = (
      await h.read({ resultId, op: "query", sql: `SELECT * FROM read_text('${join(process.cwd(), "package.json")}')` })
    ).content;
    assert.match(content, /Cannot access file "<cwd>\/package.json"/);
    assert.deepEqual(leakedDirs(content, "", dirs()), []);
  });

  test("a store failure that names its file is reported without the store's directory", async () => {
    const env = await h.spill(JSON.stringify({ big: "x".repeat(2_000) }));
    const sha256 = (h.extension.spills.find((r) => r.resultId === env.resultId) as { sha256: string }).sha256;
    // Its folder replaced by a file: reading it fails with ENOTDIR and Node names the file's absolute path.
    const folder = join(tmp.root, "artifacts", sha256.slice(0, 2));
    await fs.rm(folder, { recursive: true });
    await fs.writeFile(folder, "");
    const result = await h.read({ resultId: env.resultId, op: "slice" });
    assert.equal(result.isError, true, result.content);
    assert.match(result.content, /no longer available \(ENOTDIR.*'<store>\/artifacts\//);
    assert.deepEqual(leakedDirs(result.content, "", dirs()), []);
  });
});

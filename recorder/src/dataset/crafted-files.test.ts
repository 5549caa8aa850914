// Dataset files the exporter would not write are refused when the tables open (DatasetError
// invalid_file), before any query reads their rows; a FIFO among them is never opened.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatasetError, exportDataset, FlightRecorderExtension, openDatasetTables } from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { rewriteRunsFile } from "../test-support/huge-inputs.js";
import { makeFifo, tempDir } from "../../../test/support/system.js";

let dir: string;
let cleanup: () => void;
let dataset: string;
before(async () => {
  ({ dir, cleanup } = tempDir());
  const agent = scriptedAgent(echoScript(1), [new FlightRecorderExtension({ dir: join(dir, "store") })]);
  await agent.run("one run");
  await agent.close();
  dataset = join(dir, "dataset");
  await exportDataset({ storeDir: join(dir, "store"), out: dataset });
});
after(() => cleanup());

/** A copy of the dataset with its runs file rewritten from `select`. */
async function crafted(name: string, select: string): Promise<string> {
  const copy = join(dir, name);
  cpSync(dataset, copy, { recursive: true });
  await rewriteRunsFile(copy, select);
  return copy;
}

const invalidFile = (message: RegExp) => (error: unknown) =>
  error instanceof DatasetError && error.problem === "invalid_file" && message.test(error.message);

describe("dataset files made elsewhere", () => {
  test("a runs file of one row opens; of two rows it is refused, counted from the footers", async () => {
    const tables = await openDatasetTables(await crafted("one", "SELECT * FROM runs"));
    tables.close();
    await assert.rejects(
      openDatasetTables(await crafted("two", "SELECT runs.* FROM runs, range(2)")),
      invalidFile(/holds 2 rows in 1 file\(s\): the exporter writes one run per file/),
    );
  });

  test("a runs file without the dataset's columns is refused when the view is made", async () => {
    await assert.rejects(
      openDatasetTables(await crafted("columns", "SELECT run_id FROM runs")),
      invalidFile(/the runs files of .* do not hold the dataset's columns \(Binder Error/),
    );
  });

  test("a FIFO named like a table file is left out, never opened", async () => {
    const copy = join(dir, "piped");
    cpSync(dataset, copy, { recursive: true });
    makeFifo(join(copy, "runs", readdirSync(join(copy, "runs"))[0]!, "run_piped.parquet"));
    const tables = await openDatasetTables(copy);
    try {
      const rows = await tables.connection.runAndReadAll("SELECT count(*) AS n FROM runs");
      assert.equal(Number(rows.getRowObjectsJson()[0]!.n), 1);
    } finally {
      tables.close();
    }
  });
});

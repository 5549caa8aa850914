import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import {
  exportDataset,
  FlightRecorderExtension,
  openBundle,
  openDatasetTables,
  openSegmentTables,
  RecordingStore,
  runDirOf,
} from "../index.js";
import { allStoreBytes } from "../test-support/store-bytes.js";
import { tempDir } from "../../../test/support/system.js";

const SECRET = "sk-proj-LABELSECRET0123456789abcdef";

/** Two runs of one agent with default labels: one with its own metadata, tags and a secret in them, one without. */
async function recordLabelledRuns(dir: string): Promise<{ labelled: string; plain: string }> {
  const recorder = new FlightRecorderExtension({ dir });
  const agent = new Agent({
    provider: new ScriptedProvider([{ text: "one" }, { text: "two" }]),
    extensions: [recorder],
    metadata: { release: "1.4.2", env: "prod" },
    tags: ["support"],
  });
  const labelled = await agent.run("hi", {
    metadata: { "user.id": "u_42", ticket: 981, vip: true, note: `key ${SECRET}` },
    tags: ["vip", `t-${SECRET}`],
  });
  const plain = await agent.run("again");
  await agent.close();
  return { labelled: labelled.runId, plain: plain.runId };
}

describe("run metadata and tags in the recording", () => {
  test("run.json, the catalog's listing, the runs table, events and spans carry them, redacted", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { labelled, plain } = await recordLabelledRuns(dir);
      const store = new RecordingStore(dir);
      const manifest = await store.manifest(labelled);
      assert.deepEqual(
        { ...manifest.metadata, note: "(redacted)" },
        { release: "1.4.2", env: "prod", "user.id": "u_42", ticket: 981, vip: true, note: "(redacted)" },
      );
      assert.ok(!String(manifest.metadata?.note).includes(SECRET), String(manifest.metadata?.note));
      assert.deepEqual(manifest.tags?.slice(0, 2), ["support", "vip"]);
      assert.ok(!manifest.tags?.[2]?.includes(SECRET), manifest.tags?.[2]);
      for (const file of await allStoreBytes(dir)) assert.ok(!file.text.includes(SECRET), `secret in ${file.path}`);

      const { runs } = await store.listRunFolders({});
      const listed = runs.find((r) => r.runId === labelled)!;
      assert.deepEqual(listed.metadata, manifest.metadata);
      assert.deepEqual(listed.tags, manifest.tags);
      assert.deepEqual(runs.find((r) => r.runId === plain)?.metadata, { release: "1.4.2", env: "prod" });

      const tables = await openSegmentTables(dir, [runDirOf(dir, labelled), runDirOf(dir, plain)]);
      try {
        const rows = await tables.query(
          "SELECT run_id, metadata->>'ticket' AS ticket, list_contains(tags, 'vip') AS vip, len(tags)::INTEGER AS n FROM runs ORDER BY started_at",
        );
        assert.deepEqual(rows, [
          { run_id: labelled, ticket: "981", vip: true, n: 3 },
          { run_id: plain, ticket: null, vip: false, n: 1 },
        ]);
        const start = await tables.query(
          `SELECT attrs->'tags' AS tags FROM events WHERE kind = 'agent_start' AND run_id = '${labelled}'`,
        );
        assert.deepEqual(JSON.parse(String(start[0]?.tags)), manifest.tags);
        const span = await tables.query(
          `SELECT attrs->>'user.id' AS user, attrs->>'harnessx.run.metadata.ticket' AS ticket FROM spans WHERE kind = 'run' AND run_id = '${labelled}'`,
        );
        assert.deepEqual(span, [{ user: "u_42", ticket: "981" }]);
      } finally {
        tables.close();
      }
    } finally {
      cleanup();
    }
  });

  test("they travel in a bundle and a dataset; a dataset written before them reads them as NULL", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { labelled } = await recordLabelledRuns(dir);
      const bundle = await openBundle((await new RecordingStore(dir).exportIncident({ runId: labelled })).path);
      assert.deepEqual(bundle.run.tags?.slice(0, 2), ["support", "vip"]);
      assert.equal(bundle.run.metadata?.["user.id"], "u_42");

      const out = join(dir, "dataset");
      await exportDataset({ storeDir: dir, out });
      const dataset = await openDatasetTables(out);
      try {
        const rows = await dataset.query(
          `SELECT metadata->>'user.id' AS user, tags FROM runs WHERE run_id = '${labelled}'`,
        );
        assert.equal(rows[0]?.user, "u_42");
        assert.deepEqual((rows[0]?.tags as string[] | undefined)?.slice(0, 2), ["support", "vip"]);
        // The runs files as the first dataset version wrote them: without the two columns.
        const partition = join(out, "runs", readdirSync(join(out, "runs"))[0]!);
        for (const name of readdirSync(partition)) {
          const file = join(partition, name).replaceAll("'", "''");
          await dataset.connection.run(
            `COPY (SELECT * EXCLUDE (metadata, tags) FROM read_parquet('${file}')) TO '${file}.old' (FORMAT parquet)`,
          );
        }
      } finally {
        dataset.close();
      }
      const partition = join(out, "runs", readdirSync(join(out, "runs"))[0]!);
      for (const name of readdirSync(partition).filter((n) => n.endsWith(".old")))
        await rename(join(partition, name), join(partition, name.slice(0, -".old".length)));
      const old = await openDatasetTables(out);
      try {
        const rows = await old.query(
          "SELECT count(*)::INTEGER AS n, count(metadata)::INTEGER AS m, count(tags)::INTEGER AS t FROM runs",
        );
        assert.deepEqual(rows, [{ n: 2, m: 0, t: 0 }]);
      } finally {
        old.close();
      }
    } finally {
      cleanup();
    }
  });
});

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { ResultSpillExtension } from "./result-spill-extension.js";
import { SpillHarness, tempStore } from "./test-support/spill-harness.js";

const tmp = tempStore();
let h: SpillHarness;
before(() => {
  h = new SpillHarness(tmp.store, { thresholdBytes: 2_000, previewBytes: 600 });
});
after(async () => {
  await h.close();
  tmp.cleanup();
});

function orders(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    customer: `customer ${i}`,
    region: ["eu", "us", "apac"][i % 3],
    amount: ((i * 37) % 1000) / 10,
  }));
}

describe("a result over the threshold becomes an envelope", () => {
  test("JSON array of objects: rows, typed columns, valid preview rows, how to read more", async () => {
    const rows = orders(300);
    const env = await h.spill(JSON.stringify(rows));
    assert.equal(env.spilled, true);
    assert.equal(env.kind, "json_array_of_objects");
    assert.equal(env.tool, "produce");
    assert.equal(env.bytes, Buffer.byteLength(JSON.stringify(rows)));
    assert.equal(env.rows, 300);
    assert.deepEqual(env.columns, [
      { name: "id", type: "BIGINT" },
      { name: "customer", type: "VARCHAR" },
      { name: "region", type: "VARCHAR" },
      { name: "amount", type: "DOUBLE" },
    ]);
    const preview = env.preview as unknown[];
    assert.ok(preview.length >= 1 && preview.length <= 5);
    assert.deepEqual(preview, rows.slice(0, preview.length));
    assert.match(String(env.howToRead), /read_result/);
    assert.match(String(env.howToRead), new RegExp(env.resultId));
    assert.ok(JSON.stringify(env).length < 2_000, "the envelope is compact");
  });

  test("JSON object: kind json with a shortened but valid preview", async () => {
    const doc = { meta: { page: 1, total: 5000 }, items: orders(200), note: "x".repeat(5_000) };
    const env = await h.spill(JSON.stringify(doc));
    assert.equal(env.kind, "json");
    assert.equal(env.rows, undefined);
    const preview = env.preview as Record<string, unknown>;
    assert.deepEqual(preview.meta, { page: 1, total: 5000 });
    assert.ok(Array.isArray(preview.items));
    assert.match(String(preview.note), /chars\)$/);
    assert.ok(JSON.stringify(preview).length <= 600);
  });

  test("NDJSON with a malformed line: rows exclude it and the envelope counts it", async () => {
    const lines = orders(100).map((r) => JSON.stringify(r));
    lines.splice(40, 0, '{"id": 41, "customer": "broken');
    const env = await h.spill(`${lines.join("\n")}\n`);
    assert.equal(env.kind, "ndjson");
    assert.equal(env.unreadableLines, 1);
    assert.equal(env.rows, 100);
    assert.deepEqual((env.preview as unknown[])[0], orders(1)[0]);
    const answer = await h.read({
      resultId: env.resultId,
      op: "query",
      sql: "SELECT count(*) AS n, count(customer) AS named FROM result",
    });
    assert.deepEqual(JSON.parse(answer.content).rows, [{ n: 100, named: 100 }]);
  });

  test("CSV with quoted commas: fields stay whole in columns, preview and queries", async () => {
    const body = orders(200).map((r) => `${r.id},"${r.customer}, Ltd.","${r.region}, north",${r.amount}`);
    const csv = `${["id,customer,region,amount", ...body].join("\n")}\n`;
    const env = await h.spill(csv);
    assert.equal(env.kind, "csv");
    assert.equal(env.rows, 200);
    assert.deepEqual(
      (env.columns as Array<{ name: string }>).map((c) => c.name),
      ["id", "customer", "region", "amount"],
    );
    const preview = String(env.preview);
    assert.ok(csv.startsWith(preview), "the preview is the head of the CSV");
    assert.ok(preview.endsWith("\n") && preview.split("\n").length > 2, "whole records only");
    const answer = await h.read({
      resultId: env.resultId,
      op: "query",
      sql: "SELECT customer, region FROM result WHERE id = 7",
    });
    const seventh = orders(200)[7];
    assert.deepEqual(JSON.parse(answer.content).rows, [
      { customer: `${seventh!.customer}, Ltd.`, region: `${seventh!.region}, north` },
    ]);
  });

  test("plain text: kind text, preview is the head", async () => {
    const text = Array.from({ length: 400 }, (_, i) => `log line ${i}: something happened`).join("\n");
    const env = await h.spill(text);
    assert.equal(env.kind, "text");
    assert.ok(text.startsWith(String(env.preview)));
    assert.ok(String(env.preview).length <= 600);
  });

  test("a JSON array that is not all objects is json, not a table", async () => {
    const env = await h.spill(JSON.stringify(Array.from({ length: 2000 }, (_, i) => i)));
    assert.equal(env.kind, "json");
    const refused = await h.read({ resultId: env.resultId, op: "query", sql: "SELECT 1" });
    assert.equal(refused.isError, true);
    assert.match(refused.content, /not a table/);
  });
});

describe("wide tables stay within the caps", () => {
  test("the envelope lists the first 60 columns; a SELECT * answer drops column types before it floods", async () => {
    const wide = Array.from({ length: 40 }, (_, r) =>
      Object.fromEntries(Array.from({ length: 300 }, (_, c) => [`column_number_${c}`, r * c])),
    );
    const env = await h.spill(JSON.stringify(wide));
    assert.equal((env.columns as unknown[]).length, 60);
    assert.equal(env.moreColumns, 240);
    const answer = await h.read({ resultId: env.resultId, op: "query", sql: "SELECT * FROM result" });
    assert.equal(answer.isError, false, answer.content);
    assert.ok(answer.content.length <= 12_000);
    const parsed = JSON.parse(answer.content);
    assert.equal(parsed.columns, undefined);
    assert.ok(parsed.rows.length >= 1 && parsed.rows.length < 40);
    assert.deepEqual(parsed.rows[0], wide[0]);
    assert.match(parsed.note, /output cut at \d+ rows/);
  });
});

describe("spilling keeps the result's identity and stores each content once", () => {
  test("results under the threshold pass through unchanged", async () => {
    const small = JSON.stringify(orders(3));
    const result = await h.produce(small);
    assert.equal(result.content, small);
  });

  test("isError and toolCallId are preserved", async () => {
    const result = await h.produce("boom ".repeat(1_000), { isError: true });
    assert.equal(result.isError, true);
    assert.match(result.toolCallId, /^call_/);
    assert.equal(JSON.parse(result.content).kind, "text");
  });

  test("the same result twice is stored once, with one resultId, and each spill is emitted", async () => {
    const content = JSON.stringify(orders(500));
    const before = (await tmp.store.list()).length;
    const first = await h.spill(content);
    const second = await h.spill(content);
    assert.equal(first.resultId, second.resultId);
    assert.equal((await tmp.store.list()).length, before + 1);
    const spills = h.events.filter((e) => e.name === "spill" && e.data.resultId === first.resultId);
    assert.equal(spills.length, 2);
    const data = spills[0]!.data;
    assert.equal(data.toolName, "produce");
    assert.equal(data.kind, "json_array_of_objects");
    assert.equal(data.bytes, Buffer.byteLength(content));
    assert.match(String(data.toolCallId), /^call_/);
    assert.equal((await tmp.store.get(String(data.sha256))).toString("utf8"), content);
  });
});

describe("a spill that cannot be stored never fails the run", () => {
  test("the whole result goes through and a spill_failed event says why", async () => {
    const broken = {
      put: async () => {
        throw new Error("disk full");
      },
      get: async () => Buffer.alloc(0),
      has: async () => false,
      pin: async () => undefined,
      unpin: async () => undefined,
      deleteIfUnpinned: async () => false,
    };
    const content = JSON.stringify(orders(500));
    const failures: unknown[] = [];
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "produce", input: {} }] }, { text: "ok" }]),
      tools: [tool({ name: "produce", description: "", execute: () => content })],
      extensions: [new ResultSpillExtension({ store: broken })],
    });
    agent.hooks.on(HookEvent.CUSTOM, (e) => void (e.data.name === "spill_failed" && failures.push(e.data.data)));
    let seen = "";
    agent.hooks.on(HookEvent.TOOL_CALL_END, (e) => void (seen = e.data.result.content));
    try {
      const run = await agent.run("go");
      assert.equal(run.status, "completed");
      assert.equal(seen, content);
      assert.equal(failures.length, 1);
      assert.match(JSON.stringify(failures[0]), /disk full/);
    } finally {
      await agent.close();
    }
  });
});

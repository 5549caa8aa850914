import { afterEach, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { SessionStateError } from "@harnessx/core";
import { SpillHarness, tempStore } from "./test-support/spill-harness.js";

const rows = Array.from({ length: 800 }, (_, i) => ({ id: i, city: ["Lyon", "Oslo"][i % 2], score: i % 17 }));
const content = JSON.stringify(rows);
const oslo = rows.filter((r) => r.city === "Oslo").length;
let tmp: ReturnType<typeof tempStore>;
const open: SpillHarness[] = [];
const harness = (...args: ConstructorParameters<typeof SpillHarness> extends [unknown, ...infer R] ? R : never) => {
  const h = new SpillHarness(tmp.store, ...args);
  open.push(h);
  return h;
};

beforeEach(() => {
  tmp = tempStore();
});
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  tmp.cleanup();
});

describe("the spill index survives saveSession / loadSession", () => {
  test("a new agent loaded from the saved session reads a result spilled before, after the first closed", async () => {
    const first = harness({ thresholdBytes: 1_000 });
    const { resultId } = await first.spill(content);
    const saved = JSON.parse(JSON.stringify(first.agent.saveSession()));
    await first.close();

    const second = harness({ thresholdBytes: 1_000 });
    await second.agent.loadSession(saved);
    const answer = await second.read({
      resultId,
      op: "query",
      sql: "SELECT count(*) AS n FROM result WHERE city = 'Oslo'",
    });
    assert.equal(answer.isError, false, answer.content);
    assert.deepEqual(JSON.parse(answer.content).rows, [{ n: oslo }]);
    const slice = await second.read({ resultId, op: "slice", start: 2, count: 5 });
    assert.ok(slice.content.includes('"city": "Lyon"'));
    assert.deepEqual(
      second.extension.spills.map((s) => s.resultId),
      [resultId],
    );
  });

  test('with retention "session" close() deletes the spill, and a later reader gets a clear error', async () => {
    const first = harness({ thresholdBytes: 1_000, retention: "session" });
    const { resultId } = await first.spill(content);
    const sha = String(first.events.find((e) => e.name === "spill")?.data.sha256);
    const saved = first.agent.saveSession();
    await first.close();
    assert.equal(await tmp.store.has(sha), false);

    const second = harness({ thresholdBytes: 1_000 });
    await second.agent.loadSession(saved);
    const result = await second.read({ resultId, op: "slice" });
    assert.equal(result.isError, true);
    assert.match(result.content, /no longer available.*Run the tool "produce" again/);
  });

  test('with retention "session" an artifact pinned by a recording survives close()', async () => {
    const first = harness({ thresholdBytes: 1_000, retention: "session" });
    await first.spill(content);
    const sha = String(first.events.find((e) => e.name === "spill")?.data.sha256);
    await tmp.store.pin(sha, "run:recorded");
    await first.close();
    assert.equal(await tmp.store.has(sha), true);
    assert.deepEqual(await tmp.store.holders(sha), ["run:recorded"]);
  });

  test('a session loaded into a second agent keeps the artifact alive when the first closes with retention "session"', async () => {
    const first = harness({ thresholdBytes: 1_000, retention: "session" });
    const { resultId } = await first.spill(content);
    const second = harness({ thresholdBytes: 1_000, retention: "session" });
    await second.agent.loadSession(first.agent.saveSession());
    await first.close();
    const answer = await second.read({ resultId, op: "schema" });
    assert.equal(JSON.parse(answer.content).rows, rows.length);
  });

  test("a duration retention releases expired spills when the session is loaded", async () => {
    const first = harness({ thresholdBytes: 1_000, retention: 60_000 });
    const { resultId } = await first.spill(content);
    const sha = String(first.events.find((e) => e.name === "spill")?.data.sha256);
    const saved = first.agent.saveSession();
    await first.close();
    assert.equal(await tmp.store.has(sha), true, "kept after close within the retention");
    const state = saved.extensions.result_spill!.state as { records: Array<{ spilledAt: number }> };
    state.records[0]!.spilledAt -= 120_000;
    const second = harness({ thresholdBytes: 1_000, retention: 60_000 });
    await second.agent.loadSession(saved);
    assert.equal(await tmp.store.has(sha), false);
    const result = await second.read({ resultId, op: "slice" });
    assert.match(result.content, /no spilled result/);
  });

  test("tampered or foreign state is refused with a clear error", async () => {
    const first = harness({ thresholdBytes: 1_000 });
    await first.spill(content);
    const saved = JSON.parse(JSON.stringify(first.agent.saveSession()));
    const second = harness({ thresholdBytes: 1_000 });
    const tampered = structuredClone(saved);
    tampered.extensions.result_spill.state.records[0].resultId = "res_0000000000000000";
    await assert.rejects(
      second.agent.loadSession(tampered),
      (e: unknown) => e instanceof SessionStateError && /resultId does not match sha256/.test(e.message),
    );
    const wrongFormat = structuredClone(saved);
    wrongFormat.extensions.result_spill.state.format = "something else";
    await assert.rejects(second.agent.loadSession(wrongFormat), /spill state format must be "harnessx.spill-index"/);
    const wrongVersion = structuredClone(saved);
    wrongVersion.extensions.result_spill.version = 2;
    await assert.rejects(second.agent.loadSession(wrongVersion), /version 2/);
  });
});

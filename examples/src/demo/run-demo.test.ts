import assert from "node:assert/strict";
import { test } from "node:test";
import { runDemo } from "./run-demo.js";

test("the demo runs on the embedded scripted model: parallel tools, a slow one, a failing one, an answer", async () => {
  const lines: string[] = [];
  const { result } = await runDemo({ write: (l) => lines.push(l), env: {} });
  assert.equal(result.status, "completed");
  const out = lines.join("\n");
  assert.match(out, /embedded scripted model/);
  assert.match(out, /tool search_orders ok/);
  assert.match(out, /tool charge_card FAILED \(failed/);
  assert.match(out, /card declined/);
  const starts = lines.filter((l) => /tool (get_weather|search_orders) started/.test(l)).length;
  assert.equal(starts, 2);
  assert.ok(result.usage.inputTokens > 0);
});

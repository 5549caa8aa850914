import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Agent, ScriptedProvider, tool, type Message, type ModelRequest } from "@harnessx/core";
import { HookEvent, type SandboxExecData } from "@harnessx/core/extension";
import { ResultSpillExtension } from "./result-spill-extension.js";
import { tempStore } from "./test-support/spill-harness.js";

function lastToolResults(request: ModelRequest): Array<{ content: string; isError: boolean }> {
  const last = request.messages[request.messages.length - 1] as Message;
  return last.content.flatMap((b) => (b.type === "tool_result" ? [{ content: b.content, isError: b.isError }] : []));
}

describe("an agent answers from a big table through the envelope and read_result", () => {
  test("the model sees the envelope, queries the stored table and answers; the big table never reaches it", async () => {
    const tmp = tempStore();
    const sales = Array.from({ length: 20_000 }, (_, i) => ({
      order: i,
      product: ["tea", "coffee", "cocoa"][i % 3],
      units: (i * 13) % 50,
    }));
    const csv = ["order,product,units", ...sales.map((s) => `${s.order},${s.product},${s.units}`)].join("\n");
    const coffee = sales.filter((s) => s.product === "coffee").reduce((sum, s) => sum + s.units, 0);
    const exportSales = tool({ name: "export_sales", description: "all sales as CSV", execute: () => csv });
    let envelope: Record<string, unknown> = {};
    const provider = new ScriptedProvider(
      [
        { toolCalls: [{ name: "export_sales", input: {} }] },
        (request) => {
          envelope = JSON.parse(lastToolResults(request)[0].content);
          return {
            toolCalls: [
              {
                name: "read_result",
                input: {
                  resultId: envelope.resultId,
                  op: "query",
                  sql: "SELECT sum(units) AS coffee_units FROM result WHERE product = 'coffee'",
                },
              },
            ],
          };
        },
        (request) => {
          const [answer] = lastToolResults(request);
          assert.equal(answer.isError, false, answer.content);
          return { text: `Coffee units sold: ${JSON.parse(answer.content).rows[0].coffee_units}` };
        },
      ],
      { recordRequests: true },
    );
    const agent = new Agent({
      provider,
      tools: [exportSales],
      extensions: [new ResultSpillExtension({ store: tmp.store })],
    });
    try {
      const result = await agent.run("How many coffee units did we sell?");
      assert.equal(result.status, "completed");
      assert.equal(result.text, `Coffee units sold: ${coffee}`);
      assert.equal(envelope.kind, "csv");
      assert.equal(envelope.rows, sales.length);
      assert.ok(
        provider.requests.every((r) => JSON.stringify(r.messages).length < 10_000),
        "no request carries the whole table",
      );
      assert.ok(provider.requests[0].tools.some((t) => t.name === "read_result"));
    } finally {
      await agent.close();
      tmp.cleanup();
    }
  });
});

describe("every statement the SQL sandbox runs or refuses is a SANDBOX_EXEC event", () => {
  test("a SELECT reports its rows; a write is reported refused; neither carries the statement's text", async () => {
    const tmp = tempStore();
    const csv = ["id,name", ...Array.from({ length: 2_000 }, (_, i) => `${i},customer-${i}@example.com`)].join("\n");
    const select = "SELECT count(*) AS n FROM result";
    const write = "DELETE FROM result";
    const query = (sql: string) => (request: ModelRequest) => {
      const envelope = JSON.parse(lastToolResults(request)[0]?.content ?? "{}") as { resultId?: string };
      resultId ??= envelope.resultId;
      return { toolCalls: [{ name: "read_result", input: { resultId, op: "query", sql } }] };
    };
    let resultId: string | undefined;
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: "export", input: {} }] },
      query(select),
      query(write),
      { text: "done" },
    ]);
    const agent = new Agent({
      provider,
      tools: [tool({ name: "export", description: "exports customers", execute: () => csv })],
      extensions: [new ResultSpillExtension({ store: tmp.store })],
    });
    const seen: SandboxExecData[] = [];
    agent.hooks.on(HookEvent.SANDBOX_EXEC, (ctx) => void seen.push(ctx.data));
    try {
      assert.equal((await agent.run("count them")).status, "completed");
      assert.deepEqual(
        seen.map(({ durationMs, ...rest }) => {
          assert.ok(durationMs >= 0);
          return rest;
        }),
        [
          {
            engine: "duckdb",
            statementSha256: createHash("sha256").update(select).digest("hex"),
            tool: "read_result",
            rows: 1,
            refused: false,
            extension: "result_spill",
          },
          {
            engine: "duckdb",
            statementSha256: createHash("sha256").update(write).digest("hex"),
            tool: "read_result",
            rows: 0,
            refused: true,
            code: "sql_refused",
            extension: "result_spill",
          },
        ],
      );
    } finally {
      await agent.close();
      tmp.cleanup();
    }
  });
});

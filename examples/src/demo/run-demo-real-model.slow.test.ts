// The demo on a "real" model: an OpenAI-compatible server (a local fake speaking the
// Chat Completions wire format, as llama.cpp or vLLM would) chosen through the environment.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FakeServer } from "../../../packages/providers/src/test-support/server.js";
import { openAITurn } from "../../../packages/providers/src/test-support/openai-wire.js";
import { runDemo } from "./run-demo.js";

test("with OPENAI_BASE_URL set, the same demo runs on that server's model", async () => {
  const server = await FakeServer.start();
  const dir = mkdtempSync(join(tmpdir(), "harnessx-demo-openai-"));
  try {
    server.reply(
      openAITurn({
        model: "local-llama",
        toolCalls: [{ id: "c1", name: "get_weather", arguments: '{"city":"Lisbon"}' }],
        finishReason: "tool_calls",
        usage: { prompt: 300, completion: 12 },
      }),
      openAITurn({
        model: "local-llama",
        text: "It is 14°C and overcast in Lisbon.",
        finishReason: "stop",
        usage: { prompt: 340, completion: 11 },
      }),
    );
    const lines: string[] = [];
    const { result } = await runDemo({
      dir,
      write: (l) => lines.push(l),
      env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: "sk-local", OPENAI_MODEL: "local-llama" },
    });
    assert.equal(result.status, "completed", result.error?.message);
    assert.equal(result.text, "It is 14°C and overcast in Lisbon.");
    assert.match(lines[0]!, /OpenAI-compatible model local-llama at http:\/\/127\.0\.0\.1/);
    assert.deepEqual(
      result.usage,
      { inputTokens: 640, outputTokens: 23, cacheReadTokens: 0, cost: { usd: null, unpricedCalls: 2 } },
      "a local model has no price",
    );
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0]!.body.model, "local-llama");
    assert.ok(
      server.requests[0]!.body.tools?.some(
        (t) => (t.function as { name?: unknown } | undefined)?.name === "export_sales",
      ),
    );
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

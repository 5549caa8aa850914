// Prompt caching end to end: an agent with promptCacheExtension on the real Anthropic SDK against a
// local Messages API server. The requests carry cache_control markers; the server's cache reads and
// writes come back on LLM_RESPONSE, are priced, recorded, put on the recorded chat spans and shown
// by `trace summary` as the run's hit rate (from the run's rollup and from its bundle's events
// alike); a middleware that rewrites the history is recorded as the cache-breaking change.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Agent,
  AnthropicProvider,
  FlightRecorderExtension,
  HookEvent,
  MiddlewarePipeline,
  promptCacheExtension,
  tool,
  type CallCost,
  type Message,
  type Usage,
} from "harnessx";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-prompt-cache-");

/** The usage each reply reports, in call order, as the Messages API names it. */
const USAGE = [
  { input_tokens: 50, cache_creation_input_tokens: 4000, cache_read_input_tokens: 0, output_tokens: 20 },
  { input_tokens: 30, cache_creation_input_tokens: 120, cache_read_input_tokens: 4000, output_tokens: 20 },
  { input_tokens: 40, cache_creation_input_tokens: 4200, cache_read_input_tokens: 0, output_tokens: 8 },
];

/** The parts of a Messages API request body this file reads. */
interface MessagesBody {
  tools: Array<{ cache_control?: unknown }>;
  system: Array<{ text: string; cache_control?: unknown }>;
  messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
}

/** A Messages API on loopback: answers two tool_use turns then a text turn, keeping every request body. */
async function messagesApi(bodies: MessagesBody[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const n = bodies.push(JSON.parse(raw) as MessagesBody) - 1;
      const content =
        n < 2
          ? [{ type: "tool_use", id: `toolu_${n}`, name: "lookup", input: { order: 42 + n } }]
          : [{ type: "text", text: "Both shipped." }];
      const message = {
        id: `msg_${n}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content,
        stop_reason: n < 2 ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: USAGE[n],
      };
      res.writeHead(200, { "content-type": "application/json", "request-id": `req_${n}` }).end(JSON.stringify(message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const bodies: MessagesBody[] = [];
let api: { server: Server; url: string };
let runId = "";
const usages: Usage[] = [];
const costs: CallCost[] = [];

before(async () => {
  api = await messagesApi(bodies);
  let calls = 0;
  // Stamps the first message with the call number from the third call on: the history the cache holds changes.
  const stamper = {
    name: "request-stamper",
    async beforeLlmCall(messages: readonly Message[], tools: readonly never[]) {
      if (++calls < 3) return [messages, tools] as [readonly Message[], readonly never[]];
      const [first, ...rest] = messages;
      const stamped: Message = {
        role: "user",
        content: [
          { type: "text", text: `[call ${calls}] ${first.content[0].type === "text" ? first.content[0].text : ""}` },
        ],
      };
      return [[stamped, ...rest], tools] as [readonly Message[], readonly never[]];
    },
  };
  const middleware = new MiddlewarePipeline();
  middleware.add(stamper);
  const agent = new Agent({
    provider: new AnthropicProvider({ baseURL: api.url, apiKey: "sk-ant-local" }),
    model: "claude-sonnet-4-5",
    name: "orders",
    system: "You answer questions about orders.",
    tools: [tool({ name: "lookup", description: "Looks an order up.", execute: () => "shipped" })],
    middleware,
    extensions: [promptCacheExtension(), new FlightRecorderExtension({ dir: cli.store })],
  });
  agent.hooks.on(HookEvent.LLM_RESPONSE, ({ data }) => {
    usages.push(data.usage);
    costs.push(data.cost);
  });
  const result = await agent.run("Where are orders 42 and 43?");
  await agent.close();
  assert.equal(result.status, "completed", String(result.error));
  runId = result.runId;
});
after(async () => {
  api.server.close();
  await cli.cleanup();
});

async function json<T>(...args: string[]): Promise<T> {
  const r = await cli.trace("--json", ...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

describe("prompt caching on Anthropic, recorded and summarized", () => {
  test("every request marks the last tool, the system prompt and the newest turns", () => {
    assert.equal(bodies.length, 3);
    for (const body of bodies) {
      assert.deepEqual(body.tools.at(-1)?.cache_control, { type: "ephemeral" });
      assert.equal(body.system.length, 1);
      assert.match(body.system[0].text, /^You answer questions about orders\.\n\n## Available tools/);
      assert.deepEqual(body.system[0].cache_control, { type: "ephemeral" });
      assert.deepEqual(body.messages.at(-1)?.content.at(-1)?.cache_control, { type: "ephemeral" });
    }
    const marked = (body: MessagesBody) =>
      body.messages.flatMap((m, i) => (m.content.some((b) => b.cache_control) ? [i] : []));
    assert.deepEqual(bodies.map(marked), [[0], [1, 2], [3, 4]]);
  });

  test("the server's cache reads and writes are on LLM_RESPONSE and priced as reads and writes", () => {
    assert.deepEqual(
      usages.map((u) => [u.inputTokens, u.cacheReadTokens, u.cacheWriteTokens]),
      [
        [4050, 0, 4000],
        [4150, 4000, 120],
        [4240, 0, 4200],
      ],
    );
    assert.ok(
      costs.every((c) => c.usd !== null),
      "claude-sonnet-4-5 has a price",
    );
    const perInput = costs.map((c, i) => (c.usd === null ? NaN : c.inputUsd / usages[i].inputTokens));
    assert.ok(
      perInput[1] < perInput[0] / 3,
      `a call read from the cache pays far less per input token (${perInput[1]} vs ${perInput[0]})`,
    );
  });

  test("trace summary: the hit rate of the run, the cache per model, the same from the rollup and from the bundle", async () => {
    type Summary = {
      cache: { readTokens: number; writeTokens: number; hitRate: number | null };
      models: Array<{
        model: string;
        inputTokens: number;
        cacheReadTokens: number | null;
        cacheWriteTokens: number | null;
      }>;
    };
    const fromRun = await json<Summary>("summary", runId);
    const input = 4050 + 4150 + 4240;
    assert.deepEqual(fromRun.cache, { readTokens: 4000, writeTokens: 8320, hitRate: 4000 / input });
    assert.deepEqual(fromRun.models, [
      {
        ...fromRun.models[0],
        model: "claude-sonnet-4-5-20250929",
        inputTokens: input,
        cacheReadTokens: 4000,
        cacheWriteTokens: 8320,
      },
    ]);
    const bundle = join(cli.work, "cached.tar");
    assert.equal((await cli.trace("export", runId, "-o", bundle)).code, 0);
    const fromBundle = await json<Summary>("summary", bundle);
    assert.deepEqual(fromBundle.cache, fromRun.cache);
    assert.deepEqual(fromBundle.models, fromRun.models);
    const text = (await cli.trace("summary", runId)).stdout;
    assert.match(text, /cache\s+32\.2% of input tokens read from the prompt cache \(4,000 read, 8,320 written\)/);
    assert.match(text, /CACHE READ\s+CACHE WRITE/);
  });

  test("the recorded chat spans carry the GenAI cache attributes", async () => {
    const rows = await json<Array<{ read: string; written: string }>>(
      "query",
      runId,
      `SELECT attrs->>'gen_ai.usage.cache_read.input_tokens' AS read, attrs->>'gen_ai.usage.cache_creation.input_tokens' AS written FROM spans WHERE kind = 'model' ORDER BY start_ts`,
    );
    assert.deepEqual(
      rows.map((r) => [Number(r.read), Number(r.written)]),
      [
        [0, 4000],
        [4000, 120],
        [0, 4200],
      ],
    );
  });

  test("the middleware's history rewrite is recorded as the cache-breaking change, naming it", async () => {
    const rows = await json<Array<{ data: string }>>(
      "query",
      runId,
      `SELECT payload->'data' AS data FROM events WHERE kind = 'custom' AND (attrs->>'name') = 'prompt_cache_break'`,
    );
    assert.equal(rows.length, 1);
    const broken = typeof rows[0].data === "string" ? JSON.parse(rows[0].data) : rows[0].data;
    assert.deepEqual(broken.changed, ["history"]);
    assert.deepEqual(broken.history, { firstChangedMessage: 0, cause: "middleware", rewrittenBy: ["request-stamper"] });
  });

  test("the break is a run span event of the converted trace", async () => {
    const out = join(cli.work, "cached.otlp.jsonl");
    assert.equal((await cli.trace("convert", runId, "--to", "otlp", "-o", out)).code, 0);
    type Attr = {
      key: string;
      value: { stringValue?: string; arrayValue?: { values: Array<{ stringValue?: string }> } };
    };
    type Span = { name: string; events: Array<{ name: string; attributes: Attr[] }> };
    type Line = { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> };
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Line);
    const spans = lines.flatMap((l) => l.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    const run = spans.find((sp) => sp.name === "invoke_agent orders");
    const event = run?.events.find((e) => e.name === "harnessx.prompt_cache_break");
    assert.ok(event, "the run's span carries the cache break");
    const attr = (key: string) => event.attributes.find((a) => a.key === key)?.value;
    assert.deepEqual(
      attr("harnessx.prompt_cache.changed")?.arrayValue?.values.map((v) => v.stringValue),
      ["history"],
    );
    assert.equal(attr("harnessx.prompt_cache.history_cause")?.stringValue, "middleware");
    assert.deepEqual(
      attr("harnessx.prompt_cache.history_rewritten_by")?.arrayValue?.values.map((v) => v.stringValue),
      ["request-stamper"],
    );
  });
});

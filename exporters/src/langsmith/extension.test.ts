import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HookEvent, type ErrorData } from "@harnessx/core/extension";
import { LangSmithExtension } from "./extension.js";
import { startLangSmithServer, type LangSmithMode, type LangSmithServer } from "../test-support/langsmith-server.js";
import { AGENT_NAME, BIG_MARKER, MODEL, scenarioAgent } from "../test-support/scenario.js";
import { refusedUrl } from "../test-support/otlp-receiver.js";
import { captureStderr } from "../test-support/stderr.js";

const LABEL_SECRET = "sk-proj-LABELSECRET0123456789abcdef";

async function traceScenario(apiUrl: string, flushTimeoutMs = 5000) {
  const extension = new LangSmithExtension({
    clientConfig: { apiUrl, apiKey: "test-key" },
    projectName: "exporters-test",
    flushTimeoutMs,
  });
  const { agent, cleanup } = scenarioAgent([extension]);
  const reports: ErrorData[] = [];
  agent.hooks.on(HookEvent.ERROR, (e) => {
    if (e.data.source === "exporter") reports.push(e.data);
  });
  try {
    const result = await agent.run("How are the regions?", {
      metadata: { "user.id": "u_42", ticket: 981, note: `key ${LABEL_SECRET}` },
      tags: ["vip", "eu", `t-${LABEL_SECRET}`],
    });
    const started = Date.now();
    await agent.close();
    return { result, closeMs: Date.now() - started, reports, extension };
  } finally {
    cleanup();
  }
}

function runTreeChecks(getServer: () => LangSmithServer) {
  const all = () => [...getServer().runs.values()];
  const root = () => all().find((r) => r.parent_run_id === undefined)!;
  const children = (type: string) => all().filter((r) => r.run_type === type);

  test("a chain run per agent run, with llm and tool child runs", () => {
    assert.equal(all().length, 1 + 3 + 5);
    const chain = root();
    assert.equal(chain.run_type, "chain");
    assert.equal(chain.name, AGENT_NAME);
    assert.equal(chain.session_name, "exporters-test");
    assert.deepEqual(chain.inputs, { input: "How are the regions?" });
    assert.equal((chain.outputs as { status: string }).status, "completed");
    assert.ok(chain.end_time, "the chain run was ended");
    assert.equal(children("llm").length, 3);
    assert.deepEqual(
      children("tool")
        .map((r) => r.name)
        .sort(),
      ["big", "broken", "forbidden", "lookup", "lookup"],
    );
  });

  test("the run's metadata and tags on its chain run, redacted; child runs carry neither", () => {
    const chain = root();
    const tags = chain.tags as string[] | undefined;
    assert.deepEqual(tags?.slice(0, 2), ["vip", "eu"]);
    assert.ok(tags?.[2] && !tags[2].includes(LABEL_SECRET), tags?.[2]);
    const meta = (chain.extra as { metadata: Record<string, unknown> }).metadata;
    assert.equal(meta["user.id"], "u_42");
    assert.equal(meta.ticket, 981);
    assert.ok(!JSON.stringify(meta).includes(LABEL_SECRET), JSON.stringify(meta));
    for (const r of all()) if (r !== chain) assert.deepEqual(r.tags ?? [], [], r.name);
  });

  test("parent links, trace id and dotted order as the SDK builds them", () => {
    const chain = root();
    assert.equal(chain.trace_id, chain.id);
    assert.equal(chain.dotted_order.split(".").length, 1);
    for (const r of all()) {
      if (r === chain) continue;
      assert.equal(r.parent_run_id, chain.id);
      assert.equal(r.trace_id, chain.id);
      assert.ok(r.dotted_order.startsWith(`${chain.dotted_order}.`), `${r.name} dotted order extends its parent's`);
      assert.ok(r.dotted_order.endsWith(r.id));
    }
    const orders = all().map((r) => r.dotted_order);
    assert.equal(new Set(orders).size, orders.length);
  });

  test("llm runs: messages, ls_* metadata and usage_metadata", () => {
    const llms = children("llm").sort((a, b) => a.dotted_order.localeCompare(b.dotted_order));
    const first = llms[0];
    const meta = (first.extra as { metadata: Record<string, unknown> }).metadata;
    assert.equal(meta.ls_provider, "scripted");
    assert.equal(meta.ls_model_name, MODEL);
    assert.equal(meta.ls_model_type, "chat");
    assert.equal(meta.ls_temperature, 0.2);
    assert.equal(meta.ls_max_tokens, 1024);
    assert.equal(meta.thread_id, "session-42");
    const inputs = first.inputs as { messages: Array<{ role: string; content: string }> };
    assert.deepEqual(inputs.messages.at(-1), { role: "user", content: "How are the regions?" });
    const outputs = first.outputs as {
      messages: Array<{ role: string; tool_calls: unknown[] }>;
      usage_metadata: Record<string, unknown>;
    };
    assert.equal(outputs.messages[0].role, "assistant");
    assert.equal(outputs.messages[0].tool_calls.length, 2);
    assert.deepEqual(outputs.usage_metadata, {
      input_tokens: 120,
      output_tokens: 30,
      total_tokens: 150,
      input_token_details: { cache_read: 100 },
    });
    assert.deepEqual((llms[1].outputs as { usage_metadata: Record<string, unknown> }).usage_metadata, {
      input_tokens: 200,
      output_tokens: 20,
      total_tokens: 220,
      input_token_details: { cache_creation: 50 },
    });
    const second = llms[1].inputs as { messages: Array<{ role: string; tool_call_id?: string }> };
    assert.deepEqual(
      second.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id),
      ["call_a", "call_b"],
    );
  });

  test("tool runs: arguments in, result or spill reference out, error when failed", () => {
    const tools = children("tool");
    const lookup = tools.find((r) => (r.inputs as { region?: string }).region === "eu")!;
    assert.deepEqual(lookup.outputs, { output: "eu: up" });
    assert.equal(lookup.error ?? undefined, undefined);
    const broken = tools.find((r) => r.name === "broken")!;
    assert.match(String(broken.error), /failed: .*backend unavailable/);
    const forbidden = tools.find((r) => r.name === "forbidden")!;
    assert.match(String(forbidden.error), /denied/);
    const big = tools.find((r) => r.name === "big")!;
    const spilled = (big.outputs as { spilled: { resultId: string; bytes: number } }).spilled;
    assert.ok(spilled.resultId && spilled.bytes > 2000);
    assert.ok(!JSON.stringify(big.outputs).includes(BIG_MARKER), "the tool run shows the reference, not the content");
    // Model inputs hold the envelope's short preview, as the model saw it; never the whole result.
    assert.ok(!JSON.stringify(all()).includes(`${BIG_MARKER}-1999`), "the spilled content was not uploaded");
  });
}

describe("LangSmith run tree through the real Client (multipart ingest)", () => {
  let server: LangSmithServer;
  before(async () => {
    server = await startLangSmithServer("ok");
    const out = await traceScenario(server.url);
    assert.equal(out.result.status, "completed");
    assert.deepEqual(out.reports, [], "nothing was lost");
    assert.ok(server.paths.includes("POST /runs/multipart"));
  });
  after(() => server.close());
  runTreeChecks(() => server);
});

describe("LangSmith run tree through /runs/batch when the server has no multipart endpoint", () => {
  let server: LangSmithServer;
  before(async () => {
    server = await startLangSmithServer("batch_only");
    const out = await traceScenario(server.url);
    assert.equal(out.result.status, "completed");
    assert.deepEqual(out.reports, []);
    assert.ok(server.paths.includes("POST /runs/batch"));
  });
  after(() => server.close());
  runTreeChecks(() => server);
});

describe("an unreachable or failing LangSmith endpoint never fails or blocks a run", () => {
  const FLUSH_LIMIT_MS = 1500;
  const SLACK_MS = 2500;
  const cases: Array<[string, LangSmithMode | "refused"]> = [
    ["connection refused", "refused"],
    ["endpoint that never answers", "hang"],
    ["HTTP 500", "status_500"],
    ["HTTP 429 with a Retry-After past the flush limit", "status_429"],
  ];
  for (const [label, mode] of cases) {
    test(`${label}: the run completes, close() returns within its flush limit, lost runs are reported`, async () => {
      const server = mode === "refused" ? undefined : await startLangSmithServer(mode);
      try {
        const out = await traceScenario(server?.url ?? (await refusedUrl("")), FLUSH_LIMIT_MS);
        assert.equal(out.result.status, "completed");
        assert.ok(out.closeMs < FLUSH_LIMIT_MS + SLACK_MS, `close took ${out.closeMs} ms`);
        assert.equal(
          out.reports.reduce((n, r) => n + (r.dropped ?? 0), 0),
          9,
          "all nine runs reported lost",
        );
        assert.equal(out.reports[0].extension, "langsmith");
      } finally {
        await server?.close();
      }
    });
  }
});

describe("after close the LangSmith exporter prints nothing; losses are events", () => {
  const cases: Array<[string, LangSmithMode | "refused"]> = [
    ["uploads still in flight at close (the endpoint never answers)", "hang"],
    ["connection refused", "refused"],
  ];
  for (const [label, mode] of cases) {
    test(`${label}: nothing written to stderr, all nine runs reported lost`, async () => {
      const server = mode === "refused" ? undefined : await startLangSmithServer(mode);
      const stderr = captureStderr();
      try {
        const out = await traceScenario(server?.url ?? (await refusedUrl("")), 1000);
        await server?.close(); // ends the connections the uploads hang on
        await out.extension.client.awaitPendingTraceBatches(); // whatever the SDK still had queued has run
        stderr.stop();
        assert.equal(stderr.text(), "");
        assert.equal(
          out.reports.reduce((n, r) => n + (r.dropped ?? 0), 0),
          9,
        );
      } finally {
        stderr.stop();
        await server?.close();
      }
    });
  }
});

// Runs made with the OpenAI Agents SDK (its Runner, a scripted Model traced as the SDK's own
// models are, a real tool, a handoff, an input guardrail) and recorded with recordOpenAIAgents
// answer the trace CLI as native runs do: summary, the spans table, convert to OTLP, and a
// bundle's export, read back the same.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { recordAgentsWeatherRun, AGENTS_WEATHER_RUN } from "@harnessx/recorder/test-support";
import { cliWorkspace } from "@harnessx/cli/test-support";
import { otlpAttr, readOtlpSpans } from "../support/otlp-lines.js";
import { runAndCalls, SPAN_ROWS, type SpanRow } from "../support/span-rows.js";

const cli = cliWorkspace("hx-openai-agents-");
let okRun: string;
let failedToolRun: string;
let failedModelRun: string;
const totalInput = AGENTS_WEATHER_RUN.usage.reduce((n, u) => n + u.input, 0);
const totalOutput = AGENTS_WEATHER_RUN.usage.reduce((n, u) => n + u.output, 0);

async function json<T>(...args: string[]): Promise<T> {
  const r = await cli.trace("--json", ...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

before(async () => {
  okRun = (await recordAgentsWeatherRun({ recorder: { dir: cli.store }, name: "weather-advice" })).runId;
  failedToolRun = (await recordAgentsWeatherRun({ recorder: { dir: cli.store } }, { failingTool: true })).runId;
  failedModelRun = (
    await recordAgentsWeatherRun(
      { recorder: { dir: cli.store } },
      { modelError: new Error("upstream 503: overloaded") },
    )
  ).runId;
});
after(() => cli.cleanup());

type Summary = {
  status: string;
  models: Array<{ model: string; calls: number; inputTokens: number; outputTokens: number }>;
  tools: Array<{ tool: string; calls: number; errors: number }>;
  error?: { message: string };
};

describe("trace summary of an Agents SDK run", () => {
  test("its model with the tokens of the four calls, its tool's calls and the handoff", async () => {
    const s = await json<Summary>("summary", okRun);
    assert.equal(s.status, "completed");
    assert.deepEqual(
      s.models.map((m) => [m.model, m.calls, m.inputTokens, m.outputTokens]),
      [[AGENTS_WEATHER_RUN.model, 4, totalInput, totalOutput]],
    );
    assert.deepEqual(s.tools.map((t) => [t.tool, t.calls, t.errors]).sort(), [
      ["transfer_to_writer", 1, 0],
      ["weather", 2, 0],
    ]);
  });

  test("a failing tool is counted as the tool's error; a failing model fails the run with its message", async () => {
    const tools = await json<Summary>("summary", failedToolRun);
    assert.equal(tools.status, "completed");
    assert.deepEqual(
      tools.tools.find((t) => t.tool === "weather"),
      { ...tools.tools.find((t) => t.tool === "weather"), calls: 2, errors: 1 },
    );
    const failed = await json<Summary>("summary", failedModelRun);
    assert.equal(failed.status, "failed");
    assert.match(failed.error?.message ?? "", /upstream 503/);
  });

  test("the text summary names the agent, the model and the tools", async () => {
    const r = await cli.trace("summary", okRun);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /weather-advice/);
    assert.match(r.stdout, /status\s+completed/);
    assert.match(
      r.stdout,
      new RegExp(`${AGENTS_WEATHER_RUN.model}\\s+4\\s+${totalInput.toLocaleString("en-US")}\\s+${totalOutput}`),
    );
    assert.match(r.stdout, /transfer_to_writer/);
  });
});

describe("trace query on the spans table", () => {
  test("names, parents and tokens of every span", async () => {
    const { root, calls: children } = runAndCalls(await json<SpanRow[]>("query", okRun, SPAN_ROWS));
    assert.equal(root.name, "invoke_agent weather-advice");
    assert.deepEqual([root.input_tokens, root.output_tokens], [totalInput, totalOutput]);
    // A handoff starts in the millisecond its model call ends: the calls' order is checked by the recorder's tests, their set here.
    const chat = `chat ${AGENTS_WEATHER_RUN.model}`;
    assert.deepEqual(children.map((r) => r.name).sort(), [
      chat,
      chat,
      chat,
      chat,
      "execute_tool transfer_to_writer",
      "execute_tool weather",
      "execute_tool weather",
    ]);
    const sorted = (pairs: Array<Array<number | null>>) => pairs.map((p) => p.join("/")).sort();
    assert.deepEqual(
      sorted(children.filter((r) => r.kind === "model").map((r) => [r.input_tokens, r.output_tokens])),
      sorted(AGENTS_WEATHER_RUN.usage.map((u) => [u.input, u.output])),
    );
  });

  test("the failed tool's and the failed model call's spans are error spans", async () => {
    const tools = await json<Array<{ status: string }>>(
      "query",
      failedToolRun,
      "SELECT status FROM spans WHERE name = 'execute_tool weather' ORDER BY start_ts",
    );
    // Calls that start in the same millisecond have no order in the table: compare as sets.
    assert.deepEqual(tools.map((r) => r.status).sort(), ["error", "ok"]);
    const models = await json<Array<{ status: string }>>(
      "query",
      failedModelRun,
      "SELECT status FROM spans WHERE kind = 'model' ORDER BY start_ts",
    );
    assert.deepEqual(models.map((r) => r.status).sort(), ["error", "ok"]);
  });
});

describe("trace convert and export of an Agents SDK run", () => {
  test("--to otlp: the run's spans with the GenAI attributes and the framework", async () => {
    const out = join(cli.work, "agents.otlp.jsonl");
    const r = await cli.trace("convert", okRun, "--to", "otlp", "-o", out);
    assert.equal(r.code, 0, r.stderr);
    const spans = readOtlpSpans(out);
    const root = spans.find((s) => s.name === "invoke_agent weather-advice")!;
    assert.equal(otlpAttr(root, "harnessx.framework")?.stringValue, "openai-agents");
    assert.equal(otlpAttr(root, "openai_agents.workflow")?.stringValue, "weather advice");
    const chats = spans.filter((s) => s.name.startsWith("chat "));
    assert.equal(chats.length, 4);
    assert.ok(chats.every((s) => s.parentSpanId === root.spanId && s.traceId === root.traceId));
    assert.equal(Number(otlpAttr(chats[0]!, "gen_ai.usage.input_tokens")?.intValue), AGENTS_WEATHER_RUN.usage[0].input);
    assert.equal(spans.filter((s) => s.name === "execute_tool weather").length, 2);
  });

  test("its bundle summarizes as the run does", async () => {
    const bundle = join(cli.work, "agents.tar");
    assert.equal((await cli.trace("export", okRun, "-o", bundle)).code, 0);
    const fromRun = await json<Summary>("summary", okRun);
    const fromBundle = await json<Summary>("summary", bundle);
    assert.deepEqual(fromBundle.models, fromRun.models);
    assert.deepEqual(fromBundle.tools, fromRun.tools);
  });
});

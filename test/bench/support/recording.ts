// Shared helpers of the recorder benchmarks (not a benchmark itself).
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { HookEvent, type ToolCallEndData } from "@harnessx/core/extension";
import { inScope, newSpanId, newTraceId } from "@harnessx/core/tracing";
import { FlightRecorderExtension, type FlightRecorderOptions } from "@harnessx/recorder";

export function tempStore(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? bytesUnder(path) : stat.size;
  }
  return total;
}

/** A realistic tool-call-end payload (~400 bytes of JSON) with a bit of variety per event. */
export function toolEvent(i: number, padding = 0): ToolCallEndData {
  const toolCall = {
    id: `call_${i}`,
    name: "search_docs",
    input: { query: `how to configure retry ${i % 97}`, limit: 10 },
  };
  const text = `found ${i % 13} documents about retries; the first says backoff doubles each attempt${padding ? ` ${prose(i, padding)}` : ""}`;
  return {
    toolCall,
    result: { toolCallId: toolCall.id, name: toolCall.name, content: text, isError: false },
    rawResult: { hits: i % 13, text },
    durationMs: 1.25 + (i % 7),
    outcome: "executed",
    permission: { decision: "allow", source: "manager" },
  };
}

/**
 * An agent whose hook bus drives the recorder directly: the events go through the real
 * observer, queue, writer and store, without the cost of the agent loop.
 */
export function recordingHarness(
  options: FlightRecorderOptions,
  agentOptions: { redact?: false } = {},
): { agent: Agent; recorder: FlightRecorderExtension; runId: string } {
  const recorder = new FlightRecorderExtension(options);
  const agent = new Agent({
    ...agentOptions,
    provider: new ScriptedProvider([]),
    extensions: [recorder],
    name: "bench",
  });
  return { agent, recorder, runId: `run_bench_${process.pid}_${Date.now().toString(36)}` };
}

/** Emits `count` tool-call-end events in batches (yielding between them as a real run would). */
export function emitEvents(
  agent: Agent,
  runId: string,
  count: number,
  batch = 1000,
  padding = 0,
  onBatch?: (done: number) => void,
): Promise<void> {
  // Events belong to the run whose scope they are emitted in, as in a real run.
  return inScope({ runId, span: { traceId: newTraceId(), spanId: newSpanId(), role: "agent" } }, () =>
    emitInRun(agent, runId, count, batch, padding, onBatch),
  );
}

async function emitInRun(
  agent: Agent,
  runId: string,
  count: number,
  batch: number,
  padding: number,
  onBatch?: (done: number) => void,
): Promise<void> {
  agent.hooks.emit(HookEvent.AGENT_START, { runId, input: "bench", model: "scripted-model", resumed: false });
  for (let done = 0; done < count; ) {
    const end = Math.min(count, done + batch);
    for (; done < end; done++) agent.hooks.emit(HookEvent.TOOL_CALL_END, toolEvent(done, padding));
    onBatch?.(done);
    await yieldToLoop();
  }
  const usage = { inputTokens: 0, outputTokens: 0, cost: { usd: null, unpricedCalls: 0 } };
  agent.hooks.emit(HookEvent.AGENT_END, {
    result: { status: "completed", text: "ok", pending: [], usage, runId, modelCalls: 0 },
  });
}

const WORDS =
  "the agent called a tool with retry backoff timeout error result request model reply token budget context window span trace event recorder segment artifact bundle query table schema column row value latency throughput queue drop seal".split(
    " ",
  );

/** Varied text (seeded by `i`) so compression figures are not flattered by repetition. */
export function prose(i: number, words: number): string {
  let state = (i * 2654435761) >>> 0;
  const out: string[] = [];
  for (let w = 0; w < words; w++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out.push(state % 7 === 0 ? String(state % 100_000) : WORDS[state % WORDS.length]!);
  }
  return out.join(" ");
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

// A fleet's recording store for the scale bench (not a benchmark itself): many ended runs written
// as the recorder leaves them (sealed zstd segments with sidecars, run.json with its rollup,
// through the recorder's SealedRunWriter), with model calls, tool calls returning 1-2 KB, some
// failing calls and failed runs, started over a window of time.
import { SealedRunWriter, type RecordedEvent, type RunManifest } from "@harnessx/recorder";
import { prose } from "./recording.js";
import { spanIdOf, traceIdOf } from "./sealed-runs.js";

export const FLEET_TOOLS = [
  "search_docs",
  "lookup_customer",
  "read_file",
  "run_sql",
  "send_email",
  "create_ticket",
  "fetch_url",
  "refund_order",
];
const HOSTS = ["worker-a", "worker-b", "worker-c", "worker-d"];

/** What to write: `runs` runs of about `eventsPerRun` events, started evenly over `[from, to)`. */
export interface FleetShape {
  runs: number;
  eventsPerRun: number;
  from: number;
  to: number;
  /** Runs written at once (their compression overlaps). Default 2. */
  concurrency?: number;
}

/** What was written. */
export interface FleetStore {
  runDirs: string[];
  events: number;
  failedRuns: number;
}

/** A run fails once in 20; a tool call fails once in 40, and a failed run's last call fails. */
const runFails = (r: number): boolean => r % 20 === 7;

async function writeFleetRun(
  storeDir: string,
  r: number,
  shape: FleetShape,
): Promise<{ runDir: string; events: number }> {
  const runId = `run_fleet_${String(r).padStart(6, "0")}`;
  const start = shape.from + Math.floor(((shape.to - shape.from) * r) / shape.runs);
  const writer = new SealedRunWriter(storeDir, runId);
  const failed = runFails(r);
  const runSpan = spanIdOf(runId, 0);
  let seq = 0;
  let ts = start;
  const byKind: Record<string, number> = {};
  let inputTokens = 0,
    outputTokens = 0,
    toolCalls = 0,
    errors = 0;
  const emit = async (
    spanId: string | null,
    parentSpanId: string | null,
    kind: string,
    attrs: Record<string, unknown>,
    payload: unknown,
  ) => {
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    await writer.append({
      v: 1,
      seq: ++seq,
      ts: (ts += 40 + (seq % 7) * 30),
      runId,
      spanId,
      parentSpanId,
      kind,
      attrs,
      payload,
    } as RecordedEvent);
  };
  await emit(
    runSpan,
    null,
    "agent_start",
    { agent: "support-agent", model: "gpt-4.1-mini", resumed: false },
    { input: `customer ticket ${r}: ${prose(r, 30)}`, model: "gpt-4.1-mini", resumed: false },
  );
  const iterations = Math.max(1, Math.floor((shape.eventsPerRun - 3) / 8));
  let previous: string[] = [];
  for (let i = 1; i <= iterations; i++) {
    const modelSpan = spanIdOf(runId, 3 * i);
    // A failed run's last call is to a tool that varies from one failed run to the next.
    const toolOf = (k: number): string =>
      FLEET_TOOLS[
        (failed && i === iterations && k === 1 ? Math.floor(r / 20) : r + 3 * i + 5 * k) % FLEET_TOOLS.length
      ];
    const calls = [0, 1].map((k) => ({ id: `call_${i}_${k}`, name: toolOf(k), span: spanIdOf(runId, 3 * i + 1 + k) }));
    const input = 1200 + 900 * i + (r % 300);
    inputTokens += input;
    outputTokens += 60 + (i % 40);
    await emit(null, runSpan, "loop_iteration_start", { iteration: i }, { iteration: i });
    // The request carries only the messages new since the last one: the previous tool results.
    await emit(
      modelSpan,
      runSpan,
      "llm_request",
      {
        model: "gpt-4.1-mini",
        messageCount: 2 * i,
        toolCount: FLEET_TOOLS.length,
        messagesFrom: 2 * i - 1,
        prefixReused: i > 1,
      },
      {
        request: {
          model: "gpt-4.1-mini",
          messages: previous.map((text, k) => ({
            role: "tool",
            toolCallId: `call_${i - 1}_${k}`,
            content: [{ type: "text", text }],
          })),
        },
      },
    );
    await emit(
      modelSpan,
      runSpan,
      "llm_response",
      {
        provider: "openai",
        model: "gpt-4.1-mini",
        stopReason: "tool_use",
        inputTokens: input,
        outputTokens: 60 + (i % 40),
        durationMs: 400 + ((r * 7 + i * 13) % 900),
      },
      {
        response: {
          id: `resp_${r}_${i}`,
          content: calls.map((c) => ({
            type: "tool_call",
            id: c.id,
            name: c.name,
            input: { query: prose(r * 31 + i, 6) },
          })),
        },
        usage: { inputTokens: input, outputTokens: 60 + (i % 40) },
      },
    );
    previous = [];
    for (const [k, call] of calls.entries()) {
      const fails = (r * 7 + i * 3 + k) % 40 === 0 || (failed && i === iterations && k === 1);
      const text = fails
        ? `Error: ${call.name} failed: upstream returned 503 (${prose(r + i, 12)})`
        : prose(r * 1009 + i * 17 + k, 180 + ((r + i + k) % 160));
      previous.push(text);
      toolCalls++;
      if (fails) errors++;
      await emit(
        call.span,
        runSpan,
        "tool_call_start",
        { toolName: call.name, toolCallId: call.id, permission: "allow" },
        { toolCall: { id: call.id, name: call.name, input: { query: prose(r * 31 + i, 6) } } },
      );
      await emit(
        call.span,
        runSpan,
        "tool_call_end",
        {
          toolName: call.name,
          toolCallId: call.id,
          outcome: fails ? "failed" : "executed",
          isError: fails,
          durationMs: 20 + ((r + i * 11 + k) % 700),
        },
        {
          result: { toolCallId: call.id, name: call.name, content: text, isError: fails },
          rawResult: text,
          durationMs: 20,
        },
      );
    }
    await emit(null, runSpan, "loop_iteration_end", { iteration: i, toolCalls: 2 }, { iteration: i, toolCalls: 2 });
  }
  const status = failed ? "failed" : "completed";
  const error = failed
    ? { name: "ToolError", message: "the last tool call failed and the agent gave up", code: "tool_failed" }
    : undefined;
  await emit(
    runSpan,
    null,
    "agent_end",
    { status, modelCalls: iterations },
    { result: { status, text: failed ? "" : prose(r, 40) }, ...(error ? { error } : {}) },
  );
  const manifest: RunManifest = {
    format: "harnessx.run",
    v: 1,
    runId,
    traceId: traceIdOf(runId),
    runSpanId: runSpan,
    agent: "support-agent",
    sessionId: `session_${r % 500}`,
    models: ["gpt-4.1-mini"],
    status,
    startedAt: start,
    endedAt: ts,
    producer: { recorder: "bench", core: "bench", node: process.version },
    pid: process.pid,
    hostname: HOSTS[r % HOSTS.length],
    service: "support",
    provider: "openai",
    config: {},
    artifacts: [],
    ...(error ? { error } : {}),
    summary: { events: seq, byKind, inputTokens, outputTokens, modelCalls: iterations, toolCalls, errors, dropped: 0 },
  };
  await writer.finish(manifest);
  return { runDir: writer.runDir, events: seq };
}

/** Writes the fleet's runs into `storeDir` (`runs/<id>/`), `concurrency` at a time. */
export async function writeFleetStore(
  storeDir: string,
  shape: FleetShape,
  onProgress?: (done: number) => void,
): Promise<FleetStore> {
  const runDirs: string[] = new Array(shape.runs);
  let events = 0,
    next = 0,
    done = 0;
  const worker = async () => {
    for (let r = next++; r < shape.runs; r = next++) {
      const run = await writeFleetRun(storeDir, r, shape);
      runDirs[r] = run.runDir;
      events += run.events;
      if (++done % 500 === 0) onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: shape.concurrency ?? 2 }, worker));
  return { runDirs, events, failedRuns: Array.from({ length: shape.runs }, (_, r) => r).filter(runFails).length };
}

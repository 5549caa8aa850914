import { recordedCalls, RequestComparer, type RecordedEvent, type RunManifest } from "@harnessx/recorder";
import { configDifferences, toolDifferences } from "../replay/recorded-config.js";
import { costOfModels, isErrorEvent, nanoDollars, recordedCostUsd } from "@harnessx/recorder";

/** One run of a comparison, as read: its manifest and its events with payloads in place. */
export interface DiffSide {
  run: RunManifest;
  events: readonly RecordedEvent[];
}

/** What one model call of a run (and the tool calls it asked for) cost. */
export interface Step {
  inputTokens: number;
  outputTokens: number;
  modelMs: number;
  toolCalls: number;
  toolMs: number;
  errors: number;
  /** What the model call cost in US dollars (0 when it failed without a reply); null when its reply had no price. */
  costUsd: number | null;
}

/** The same model call in both runs (a side is null past the end of its run), and B minus A. */
export interface AlignedStep {
  /** 1-based model call. */
  call: number;
  a: Step | null;
  b: Step | null;
  delta: Step | null;
}

export interface RunTotals {
  runId: string;
  status: string;
  modelCalls: number;
  toolCalls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  /** The priced model calls' cost together; null when none had a price. */
  costUsd: number | null;
  durationMs: number | null;
}

/** The first model call whose request differs, with the same comparison replay uses. */
export interface RequestChange {
  call: number;
  seqA: number | null;
  seqB: number | null;
  path: string;
  a: unknown;
  b: unknown;
}

/** The first tool call (in the order they started) whose name, outcome or result differs. */
export interface ToolResultChange {
  /** 1-based position among the runs' tool calls. */
  index: number;
  /** The model call that asked for it (1-based), in run A, else B. */
  call: number;
  toolCallId: string | null;
  field: "tool" | "outcome" | "result" | "missing";
  a: unknown;
  b: unknown;
}

export interface RunDiff {
  a: RunTotals;
  b: RunTotals;
  configDifferences: string[];
  firstRequestChange: RequestChange | null;
  firstToolResultChange: ToolResultChange | null;
  steps: AlignedStep[];
  /** True when neither the requests, the tool results, the configuration nor the status differ. */
  same: boolean;
}

interface EndedTool {
  call: number;
  toolCallId: string | null;
  tool: unknown;
  outcome: unknown;
  result: unknown;
}

const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/**
 * Steps and tool calls of a run, in one pass over its events. Tool calls are listed in the order
 * they started (the order the model asked for them), not the order they ended, which concurrent
 * calls make vary from run to run.
 */
function walk(events: readonly RecordedEvent[]): { steps: Step[]; tools: EndedTool[] } {
  const steps: Step[] = [];
  const tools: EndedTool[] = [];
  const byId = new Map<string, EndedTool>();
  let step: Step | undefined;
  for (const event of events) {
    const a = event.attrs ?? {};
    if (event.kind === "llm_request")
      steps.push(
        (step = { inputTokens: 0, outputTokens: 0, modelMs: 0, toolCalls: 0, toolMs: 0, errors: 0, costUsd: 0 }),
      );
    if (!step) continue;
    const toolCallId = typeof a.toolCallId === "string" ? a.toolCallId : null;
    if (event.kind === "llm_response") {
      step.inputTokens += num(a.inputTokens);
      step.outputTokens += num(a.outputTokens);
      step.modelMs += num(a.durationMs);
      const usd = recordedCostUsd(a);
      // One reply without a price makes the call's cost unknown.
      step.costUsd = usd !== null && step.costUsd !== null ? step.costUsd + usd : null;
    } else if (event.kind === "tool_call_start") {
      const started: EndedTool = {
        call: steps.length,
        toolCallId,
        tool: a.toolName,
        outcome: undefined,
        result: undefined,
      };
      tools.push(started);
      if (toolCallId !== null) byId.set(toolCallId, started);
    } else if (event.kind === "tool_call_end") {
      step.toolCalls++;
      step.toolMs += num(a.durationMs);
      let ended = toolCallId === null ? undefined : byId.get(toolCallId);
      if (!ended)
        tools.push(
          (ended = { call: steps.length, toolCallId, tool: a.toolName, outcome: undefined, result: undefined }),
        );
      ended.outcome = a.outcome;
      ended.result = (event.payload as { result?: { content?: unknown } } | undefined)?.result?.content;
    }
    if (isErrorEvent(event)) step.errors++;
  }
  return { steps, tools };
}

function totals(side: DiffSide, steps: readonly Step[]): RunTotals {
  const sum = (key: Exclude<keyof Step, "costUsd">) => steps.reduce((total, step) => total + step[key], 0);
  const { run } = side;
  return {
    runId: run.runId,
    status: run.status,
    modelCalls: steps.length,
    toolCalls: sum("toolCalls"),
    errors: sum("errors"),
    inputTokens: sum("inputTokens"),
    outputTokens: sum("outputTokens"),
    costUsd: costOfModels(steps.map((s) => ({ calls: 1, costUsd: s.costUsd }))).usd,
    durationMs: run.endedAt !== null ? run.endedAt - run.startedAt : null,
  };
}

function firstRequestChange(a: DiffSide, b: DiffSide): RequestChange | null {
  const [callsA, callsB] = [recordedCalls(a.events), recordedCalls(b.events)];
  // Both sides are recordings, already redacted: compared as they are.
  const comparer = new RequestComparer();
  for (let i = 0; i < Math.max(callsA.length, callsB.length); i++) {
    const [callA, callB] = [callsA[i], callsB[i]];
    const diff =
      !callA || !callB
        ? { path: "(call)", recorded: callA ? "a model call" : "no call", actual: callB ? "a model call" : "no call" }
        : comparer.compare(callA.request, callB.request);
    if (diff)
      return {
        call: i + 1,
        seqA: callA?.seq ?? null,
        seqB: callB?.seq ?? null,
        path: diff.path,
        a: diff.recorded,
        b: diff.actual,
      };
  }
  return null;
}

function firstToolResultChange(a: readonly EndedTool[], b: readonly EndedTool[]): ToolResultChange | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [toolA, toolB] = [a[i], b[i]];
    // i is below the longer list's length, so one of the two is there.
    const either = (toolA ?? toolB)!;
    const at = { index: i + 1, call: either.call, toolCallId: either.toolCallId };
    if (!toolA || !toolB)
      return { ...at, field: "missing", a: toolA ? toolA.tool : null, b: toolB ? toolB.tool : null };
    if (toolA.tool !== toolB.tool) return { ...at, field: "tool", a: toolA.tool, b: toolB.tool };
    if (toolA.outcome !== toolB.outcome) return { ...at, field: "outcome", a: toolA.outcome, b: toolB.outcome };
    if (JSON.stringify(toolA.result) !== JSON.stringify(toolB.result))
      return { ...at, field: "result", a: toolA.result, b: toolB.result };
  }
  return null;
}

function minus(b: Step, a: Step): Step {
  return {
    inputTokens: b.inputTokens - a.inputTokens,
    outputTokens: b.outputTokens - a.outputTokens,
    modelMs: b.modelMs - a.modelMs,
    toolCalls: b.toolCalls - a.toolCalls,
    toolMs: b.toolMs - a.toolMs,
    errors: b.errors - a.errors,
    costUsd: a.costUsd === null || b.costUsd === null ? null : nanoDollars(b.costUsd - a.costUsd),
  };
}

/**
 * Two runs of the same agent side by side (last night's good run and today's failure, or a run
 * and its replay): their configuration differences, the first model call whose request differs
 * (the comparison replay uses), the first tool result that differs, and per model call the
 * tokens, latency, tool calls and errors of each with B minus A.
 */
export function diffRuns(a: DiffSide, b: DiffSide): RunDiff {
  const [walkA, walkB] = [walk(a.events), walk(b.events)];
  const steps: AlignedStep[] = [];
  for (let i = 0; i < Math.max(walkA.steps.length, walkB.steps.length); i++) {
    const [stepA, stepB] = [walkA.steps[i] ?? null, walkB.steps[i] ?? null];
    steps.push({ call: i + 1, a: stepA, b: stepB, delta: stepA && stepB ? minus(stepB, stepA) : null });
  }
  const diff: RunDiff = {
    a: totals(a, walkA.steps),
    b: totals(b, walkB.steps),
    configDifferences: [...configDifferences(a.run.config, b.run.config), ...toolDifferences(a.run.tools, b.run.tools)],
    firstRequestChange: firstRequestChange(a, b),
    firstToolResultChange: firstToolResultChange(walkA.tools, walkB.tools),
    steps,
    same: false,
  };
  diff.same =
    diff.configDifferences.length === 0 &&
    !diff.firstRequestChange &&
    !diff.firstToolResultChange &&
    diff.a.status === diff.b.status;
  return diff;
}

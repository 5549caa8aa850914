import { currentScope, inScope } from "../spans/scopes.js";
import { HookEvent } from "../hooks/events.js";
import type { HookPayloads, ToolOutcome } from "../hooks/payloads.js";
import type { PermissionDecision } from "../permissions/decision.js";
import { executeTool } from "../tools/executor.js";
import { readOnlySnapshot, readOnlySnapshotOf } from "../util/read-only.js";
import type { Tool } from "../tools/tool.js";
import { cutForModel } from "../tools/truncate.js";
import type { ToolCall, ToolResult, ToolResultBlock } from "../types/content.js";
import { authorize } from "./authorize.js";
import { fire, type EngineServices, type RunSink } from "./services.js";
import type { ParentRun } from "../subagents/parent-run.js";

/** A call after `beforeToolExecution`, validation and authorization. */
export interface PlannedCall {
  call: ToolCall;
  tool?: Tool;
  permission?: PermissionDecision;
  /** Set when the call ends without running (unknown tool, bad input, denial). */
  refusal?: { outcome: ToolOutcome; message: string };
  /** True when the permission is `ask` and a human must decide. */
  needsApproval?: boolean;
  /** Who changed the call the model asked for in `beforeToolExecution` (extension, else middleware name). */
  rewrittenBy?: readonly string[];
}

/** What the tool phase of one step works with. */
export interface ToolPhaseContext {
  runId: string;
  signal?: AbortSignal;
  sink: RunSink;
  /** Set in a durable run: commits around each call, and the outcomes a resumed run reuses. */
  durable?: DurableToolPhase;
  /** Set in a subagent's run: the run whose tool call started it, whose permissions it may only narrow. */
  parent?: ParentRun;
}

/** A durable run's part in the tool phase. */
export interface DurableToolPhase {
  /** The raw outcome committed before the process died, once: the handler does not run again. */
  takeOutcome(callId: string): { outcome: ToolOutcome; result: ToolResult } | undefined;
  /** Commits that the call is about to run (synced first when the tool is not `safe` to repeat). */
  started(call: ToolCall, tool: Tool): Promise<void>;
  /** Commits the call's raw outcome, before result middleware. */
  finished(call: ToolCall, tool: Tool, outcome: ToolOutcome, result: ToolResult): Promise<void>;
}

/**
 * Executes planned calls that may run: consecutive concurrent tools run in
 * parallel, every other call alone, in request order. Returns results by call id.
 */
export async function executePlanned(
  services: EngineServices,
  planned: readonly PlannedCall[],
  ctx: ToolPhaseContext,
): Promise<Map<string, ToolResultBlock>> {
  const results = new Map<string, ToolResultBlock>();
  let batch: PlannedCall[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const running = batch;
    batch = [];
    const done = await Promise.all(running.map((p) => runToolCall(services, p, ctx)));
    for (const [i, r] of done.entries()) results.set(running[i]!.call.id, r);
  };
  for (const p of planned) {
    if (!p.refusal && p.tool?.concurrent) {
      batch.push(p);
      continue;
    }
    if (batch.length > 0) await flush();
    results.set(p.call.id, await runToolCall(services, p, ctx));
  }
  if (batch.length > 0) await flush();
  return results;
}

/** One call inside its own `execute_tool` span scope (concurrent calls each have theirs). */
function runToolCall(services: EngineServices, planned: PlannedCall, ctx: ToolPhaseContext): Promise<ToolResultBlock> {
  const scope = currentScope();
  if (!scope) return runToolCallInScope(services, planned, ctx);
  const span = services.spans.open("tool", planned.call.name, scope.runId);
  return inScope({ runId: scope.runId, span }, () => runToolCallInScope(services, planned, ctx));
}

/** Runs (or refuses) one call, then result middleware, `TOOL_CALL_END`, and the length cut. */
async function runToolCallInScope(
  services: EngineServices,
  planned: PlannedCall,
  ctx: ToolPhaseContext,
): Promise<ToolResultBlock> {
  const { call, tool } = planned;
  // A resumed run post-processes a committed outcome again; the call itself was reported before the crash.
  const committed = ctx.durable?.takeOutcome(call.id);
  if (committed)
    return resultBlock(
      services,
      services.middleware.has("afterToolExecution")
        ? await services.middleware.afterToolExecution(committed.result)
        : committed.result,
    );
  let permission = planned.permission;
  let refusal = planned.refusal;
  if (!refusal && tool && permission) {
    // Rules and policies may have changed while the call waited (for approval, or behind
    // earlier calls of its batch): the verdict that counts is the one at dispatch.
    const verdict = authorize(services, call, tool, "dispatch", ctx.runId, ctx.parent);
    const now = verdict instanceof Promise ? await verdict : verdict;
    const approved = permission.source === "user";
    if (now.decision === "deny") {
      permission = now;
      refusal = {
        outcome: "denied",
        message: `Error: permission denied for "${call.name}" at dispatch: ${now.reason ?? "denied"}.`,
      };
    } else if (now.decision === "ask" && !approved) {
      permission = now;
      refusal = {
        outcome: "denied",
        message: `Error: "${call.name}" was not run: it needs the user's approval since it was authorized (${now.reason ?? "ask"}). Call it again to ask for approval.`,
      };
    }
  }
  const started = performance.now();
  let raw: unknown;
  let outcome: ToolOutcome;
  let result: ToolResult;
  if (refusal || !tool) {
    outcome = refusal?.outcome ?? "unknown_tool";
    result = {
      toolCallId: call.id,
      name: call.name,
      content: refusal?.message ?? "Error: tool unavailable",
      isError: true,
    };
  } else {
    await ctx.durable?.started(call, tool);
    const starting = fire(services, HookEvent.TOOL_CALL_START, {
      toolCall: call,
      permission: permission!,
      ...(tool.spanAttributes ? { attributes: readOnlySnapshot(tool.spanAttributes) } : {}),
      ...rewrittenOf(planned),
    });
    if (starting) await starting;
    ctx.sink.push({ type: "tool_call_start", toolCall: call });
    const run = await services.middleware.wrapToolExecution(call, () =>
      services.writes.run(tool, call, () =>
        executeTool(tool, call, {
          runId: ctx.runId,
          signal: ctx.signal,
          onRetry: (attempt, delayMs, error) =>
            fire(services, HookEvent.RETRY, { target: "tool", attempt, delayMs, error, toolCall: call }),
        }),
      ),
    );
    raw = run.rawResult;
    outcome = run.outcome;
    result = run.result;
    await ctx.durable?.finished(call, tool, outcome, result);
  }
  const processed = services.middleware.has("afterToolExecution")
    ? await services.middleware.afterToolExecution(result)
    : result;
  const durationMs = performance.now() - started;
  const payload = {
    toolCall: call,
    result: processed,
    rawResult: raw,
    durationMs,
    outcome,
    ...(permission ? { permission } : {}),
    ...rewrittenOf(planned),
  };
  const ended = endedEvent(services, payload);
  if (ended) await ended;
  ctx.sink.push({ type: "tool_call_end", toolCall: call, result: processed, durationMs });
  return resultBlock(services, processed);
}

/**
 * TOOL_CALL_END, frozen in place but for the tool's own result, which the tool may keep and change:
 * observers get a snapshot of it, taken for each of them when it holds what cannot be frozen.
 */
function endedEvent(
  services: EngineServices,
  payload: HookPayloads[typeof HookEvent.TOOL_CALL_END],
): Promise<void> | undefined {
  if (!services.hooks.hasObservers(HookEvent.TOOL_CALL_END)) return undefined;
  const raw = readOnlySnapshotOf(payload.rawResult);
  if (!raw.shareable) return services.hooks.emit(HookEvent.TOOL_CALL_END, payload);
  return services.hooks.emitFrozen(HookEvent.TOOL_CALL_END, { ...payload, rawResult: raw.value });
}

function rewrittenOf(planned: PlannedCall): { rewrittenBy?: readonly string[] } {
  return planned.rewrittenBy ? { rewrittenBy: planned.rewrittenBy } : {};
}

/** The processed result as the model gets it: cut to `maxResultChars`. */
function resultBlock(services: EngineServices, processed: ToolResult): ToolResultBlock {
  return {
    type: "tool_result",
    toolCallId: processed.toolCallId,
    name: processed.name,
    content: cutForModel(processed.content, services.config.maxResultChars),
    isError: processed.isError,
  };
}

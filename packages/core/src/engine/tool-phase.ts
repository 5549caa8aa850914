import { currentScope, inScope } from "../spans/scopes.js";
import { HarnessError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import type { HookPayloads, ToolOutcome } from "../hooks/payloads.js";
import type { PermissionDecision } from "../permissions/decision.js";
import { askPolicy, policyApplies, strictest } from "../permissions/policy.js";
import { executeTool } from "../tools/executor.js";
import { deepFreeze } from "../util/deep-freeze.js";
import { readOnlySnapshot, readOnlySnapshotOf } from "../util/read-only.js";
import type { Tool } from "../tools/tool.js";
import { cutForModel } from "../tools/truncate.js";
import type { ToolCall, ToolCallBlock, ToolResult, ToolResultBlock } from "../types/content.js";
import type { ApprovalDecision, PendingApproval } from "./run-types.js";
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

/** A turn's tool calls waiting for approval decisions, with the results of those that already ran. */
export interface SuspendedTurn {
  blocks: ToolCallBlock[];
  planned: PlannedCall[];
  done: Map<string, ToolResultBlock>;
}

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

/** Runs `beforeToolExecution`, reads and validates input, and resolves permission for each call, in order. */
export async function planCalls(services: EngineServices, blocks: readonly ToolCallBlock[], ctx: ToolPhaseContext): Promise<PlannedCall[]> {
  const planned: PlannedCall[] = [];
  for (const block of blocks) {
    const asked: ToolCall = { id: block.id, name: block.name, input: block.input };
    const rewrittenBy: string[] = [];
    const call = services.middleware.has("beforeToolExecution") ? await services.middleware.beforeToolExecution(asked, rewrittenBy) : asked;
    const by = rewrittenBy.length > 0 ? { rewrittenBy } : {};
    if (block.parseError && call.input === block.input) {
      planned.push({ call, refusal: { outcome: "invalid_input", message: `Error: could not read the arguments of "${block.name}": ${block.parseError}. Send the call again with a JSON object as arguments.` }, ...by });
      continue;
    }
    const tool = services.tools.get(call.name);
    if (!tool) {
      const known = services.tools.names().join(", ") || "none";
      planned.push({ call, refusal: { outcome: "unknown_tool", message: `Error: there is no tool named "${call.name}". Available tools: ${known}.` }, ...by });
      continue;
    }
    const checked = tool.schema.validate(call.input);
    if (!checked.ok) {
      planned.push({ call, tool, refusal: { outcome: "invalid_input", message: `Error: invalid input for "${call.name}": ${checked.problems.join("; ")}. Fix the input and call the tool again.` }, ...by });
      continue;
    }
    // Frozen: policies, observers, middleware and the handler all get the call that is authorized here, and no other.
    const valid = deepFreeze({ ...call, input: checked.value });
    const verdict = authorize(services, valid, tool, "authorize", ctx.runId, ctx.parent);
    const permission = verdict instanceof Promise ? await verdict : verdict;
    if (permission.decision === "ask" && ctx.parent) {
      // A subagent's run ends inside its parent's tool call: there is no turn in which a human could approve.
      planned.push({ call: valid, tool, permission, refusal: { outcome: "denied", message: `Error: "${call.name}" needs the user's approval (${permission.reason ?? "ask"}), which a subagent cannot wait for.` }, ...by });
    } else if (permission.decision === "deny") {
      planned.push({ call: valid, tool, permission, refusal: { outcome: "denied", message: `Error: permission denied for "${call.name}": ${permission.reason ?? "denied"}.` }, ...by });
    } else {
      planned.push({ call: valid, tool, permission, needsApproval: permission.decision === "ask", ...by });
    }
  }
  return planned;
}


/**
 * The manager's verdict as it stands now, combined deny-wins with every applicable policy and,
 * in a subagent's run, with the parent run's verdict (a child only narrows what its parent allows).
 * Without policies or a parent it answers synchronously: no promise per call on the engine's path.
 */
export function authorize(
  services: EngineServices,
  call: ToolCall,
  tool: Tool,
  phase: "authorize" | "dispatch",
  runId: string,
  parent?: ParentRun,
  owner: string | undefined = services.tools.ownerOf(call.name),
): PermissionDecision | Promise<PermissionDecision> {
  // Pattern rules grant only their owner's tools: the owner is the registering extension's, even when a parent judges a child's call.
  const decision = services.permissions.resolve(call.name, tool.permission, owner);
  const policies = services.policies.list();
  const own = policies.length === 0 ? decision : withPolicies(services, decision, policies, call, phase, runId);
  if (!parent) return own;
  const parents = parent.authorize(call, tool, phase, owner);
  return own instanceof Promise || parents instanceof Promise ? Promise.all([own, parents]).then(([a, b]) => strictest(a, b)) : strictest(own, parents);
}

async function withPolicies(services: EngineServices, manager: PermissionDecision, policies: ReturnType<EngineServices["policies"]["list"]>, call: ToolCall, phase: "authorize" | "dispatch", runId: string): Promise<PermissionDecision> {
  let decision = manager;
  for (const { value: policy, owner } of policies) {
    if (!policyApplies(policy, call.name)) continue;
    const answer = await askPolicy(policy, { action: "tool_call", toolCall: call, phase, runId }, owner);
    if (answer.error) await fire(services, HookEvent.ERROR, { source: "policy", error: answer.error, extension: owner });
    decision = strictest(decision, answer.decision);
  }
  return decision;
}

/**
 * Executes planned calls that may run: consecutive concurrent tools run in
 * parallel, every other call alone, in request order. Returns results by call id.
 */
export async function executePlanned(services: EngineServices, planned: readonly PlannedCall[], ctx: ToolPhaseContext): Promise<Map<string, ToolResultBlock>> {
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

/** Runs (or refuses) one call, then result middleware, `TOOL_CALL_END`, and the length cut. */
/** One call inside its own `execute_tool` span scope (concurrent calls each have theirs). */
function runToolCall(services: EngineServices, planned: PlannedCall, ctx: ToolPhaseContext): Promise<ToolResultBlock> {
  const scope = currentScope();
  if (!scope) return runToolCallInScope(services, planned, ctx);
  const span = services.spans.open("tool", planned.call.name, scope.runId);
  return inScope({ runId: scope.runId, span }, () => runToolCallInScope(services, planned, ctx));
}

async function runToolCallInScope(services: EngineServices, planned: PlannedCall, ctx: ToolPhaseContext): Promise<ToolResultBlock> {
  const { call, tool } = planned;
  // A resumed run post-processes a committed outcome again; the call itself was reported before the crash.
  const committed = ctx.durable?.takeOutcome(call.id);
  if (committed) return resultBlock(services, services.middleware.has("afterToolExecution") ? await services.middleware.afterToolExecution(committed.result) : committed.result);
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
      refusal = { outcome: "denied", message: `Error: permission denied for "${call.name}" at dispatch: ${now.reason ?? "denied"}.` };
    } else if (now.decision === "ask" && !approved) {
      permission = now;
      refusal = { outcome: "denied", message: `Error: "${call.name}" was not run: it needs the user's approval since it was authorized (${now.reason ?? "ask"}). Call it again to ask for approval.` };
    }
  }
  const started = performance.now();
  let raw: unknown;
  let outcome: ToolOutcome;
  let result: ToolResult;
  if (refusal || !tool) {
    outcome = refusal?.outcome ?? "unknown_tool";
    result = { toolCallId: call.id, name: call.name, content: refusal?.message ?? "Error: tool unavailable", isError: true };
  } else {
    await ctx.durable?.started(call, tool);
    const starting = fire(services, HookEvent.TOOL_CALL_START, { toolCall: call, permission: permission!, ...(tool.spanAttributes ? { attributes: readOnlySnapshot(tool.spanAttributes) } : {}), ...rewrittenOf(planned) });
    if (starting) await starting;
    ctx.sink.push({ type: "tool_call_start", toolCall: call });
    const run = await services.middleware.wrapToolExecution(call, () =>
      services.writes.run(tool, call, () =>
        executeTool(tool, call, {
          runId: ctx.runId,
          signal: ctx.signal,
          onRetry: (attempt, delayMs, error) => fire(services, HookEvent.RETRY, { target: "tool", attempt, delayMs, error, toolCall: call }),
        }),
      ),
    );
    raw = run.rawResult;
    outcome = run.outcome;
    result = run.result;
    await ctx.durable?.finished(call, tool, outcome, result);
  }
  const processed = services.middleware.has("afterToolExecution") ? await services.middleware.afterToolExecution(result) : result;
  const durationMs = performance.now() - started;
  const payload = { toolCall: call, result: processed, rawResult: raw, durationMs, outcome, ...(permission ? { permission } : {}), ...rewrittenOf(planned) };
  const ended = endedEvent(services, payload);
  if (ended) await ended;
  ctx.sink.push({ type: "tool_call_end", toolCall: call, result: processed, durationMs });
  return resultBlock(services, processed);
}

/**
 * TOOL_CALL_END, frozen in place but for the tool's own result, which the tool may keep and change:
 * observers get a snapshot of it, taken for each of them when it holds what cannot be frozen.
 */
function endedEvent(services: EngineServices, payload: HookPayloads[typeof HookEvent.TOOL_CALL_END]): Promise<void> | undefined {
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

/** Applies the user's answers to a suspended turn: approved calls run (re-checked at dispatch), denied ones are refused. */
export function applyDecisions(planned: readonly PlannedCall[], decisions: Record<string, ApprovalDecision>): PlannedCall[] {
  const missing = planned.filter((p) => p.needsApproval && !(p.call.id in decisions)).map((p) => p.call.id);
  const bad = Object.entries(decisions).filter(([, d]) => d !== "approve" && d !== "deny");
  if (missing.length) throw new HarnessError("approval_missing", `resume needs a decision ("approve" or "deny") for every pending call; missing: ${missing.join(", ")}`);
  if (bad.length) throw new HarnessError("approval_invalid", `decisions must be "approve" or "deny"; got ${bad.map(([id, d]) => `${id}=${JSON.stringify(d)}`).join(", ")}`);
  return planned.map((p) => (p.needsApproval ? decide(p, decisions[p.call.id]!) : p));
}

/** A waiting call with the user's decision applied: approved, it runs (re-checked at dispatch); denied, it is refused. */
export function decide(p: PlannedCall, decision: ApprovalDecision): PlannedCall {
  if (decision === "approve") return { ...p, needsApproval: false, permission: { decision: "allow", source: "user", reason: "approved by the user" } };
  return { ...p, needsApproval: false, permission: { decision: "deny", source: "user", reason: "denied by the user" }, refusal: { outcome: "denied", message: `Error: the user denied the call to "${p.call.name}".` } };
}

export function pendingOf(planned: readonly PlannedCall[]): PendingApproval[] {
  return planned
    .filter((p) => p.needsApproval)
    .map((p) => ({ id: p.call.id, toolCall: p.call, reason: p.permission?.reason ?? "approval required" }));
}

import { HookEvent } from "../hooks/events.js";
import type { PermissionDecision } from "../permissions/decision.js";
import { askPolicy, policyApplies, strictest } from "../permissions/policy.js";
import type { ParentRun } from "../subagents/parent-run.js";
import type { Tool } from "../tools/tool.js";
import type { ToolCall } from "../types/content.js";
import { fire, type EngineServices } from "./services.js";

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
  return own instanceof Promise || parents instanceof Promise
    ? Promise.all([own, parents]).then(([a, b]) => strictest(a, b))
    : strictest(own, parents);
}

async function withPolicies(
  services: EngineServices,
  manager: PermissionDecision,
  policies: ReturnType<EngineServices["policies"]["list"]>,
  call: ToolCall,
  phase: "authorize" | "dispatch",
  runId: string,
): Promise<PermissionDecision> {
  let decision = manager;
  for (const { value: policy, owner } of policies) {
    if (!policyApplies(policy, call.name)) continue;
    const answer = await askPolicy(policy, { action: "tool_call", toolCall: call, phase, runId }, owner);
    if (answer.error)
      await fire(services, HookEvent.ERROR, { source: "policy", error: answer.error, extension: owner });
    decision = strictest(decision, answer.decision);
  }
  return decision;
}

import { toError } from "../errors.js";
import { deepFreeze } from "../util/deep-freeze.js";
import type { ToolCall } from "../types/content.js";
import type { Permission, PermissionDecision } from "./decision.js";

/** What a policy is asked: one tool call, when it is authorized and again just before dispatch. */
export interface PolicyRequest {
  /** What is being authorized; only tool calls for now. */
  action: "tool_call";
  /** The call, after `beforeToolExecution`, with its validated input. */
  toolCall: ToolCall;
  /** `authorize` when the call is planned (before any approval wait), `dispatch` just before it runs. */
  phase: "authorize" | "dispatch";
  /** Id of the run that made the call. */
  runId: string;
}

/** A policy's answer: a bare permission, or one with the reason shown to the model and in traces. */
export type PolicyVerdict =
  | Permission
  | {
      /** The verdict. */
      decision: Permission;
      /** Why; absent: a default reason naming the policy and its verdict. */
      reason?: string;
    };

/**
 * A veto over tool calls. Verdicts combine deny-wins: an `allow` never widens
 * what the permission manager or another policy decided. A policy that throws,
 * rejects or exceeds `timeoutMs` denies (fail closed).
 */
export interface Policy {
  /** Names the policy in verdict sources (`policy:<id>@<extension>`) and reasons. */
  id: string;
  /** Tool names this policy rules on; empty or absent means every tool. */
  actions?: readonly string[];
  /** Default 5000. */
  timeoutMs?: number;
  /** Rules on one call; any other answer than allow/ask/deny counts as deny. */
  decide(request: PolicyRequest): PolicyVerdict | Promise<PolicyVerdict>;
}

const RANK: Record<Permission, number> = { allow: 0, ask: 1, deny: 2 };

/** Combines verdicts deny-wins, then ask, then allow; the strictest one's source and reason are kept (the first on a tie). */
export function strictest(a: PermissionDecision, b: PermissionDecision): PermissionDecision {
  return RANK[b.decision] > RANK[a.decision] ? b : a;
}

export interface PolicyAnswer {
  decision: PermissionDecision;
  /** Set when the policy failed and was treated as a denial. */
  error?: Error;
}

/** Who a policy's verdict is attributed to: `policy:<id>@<extension>`. */
export function policySource(policyId: string, extension: string | undefined): string {
  return extension ? `policy:${policyId}@${extension}` : `policy:${policyId}`;
}

/** Asks one policy, turning a throw, a rejection, a timeout or a malformed verdict into a denial. */
export async function askPolicy(policy: Policy, request: PolicyRequest, extension?: string): Promise<PolicyAnswer> {
  const source = policySource(policy.id, extension);
  const who = extension ? `policy "${policy.id}" of extension "${extension}"` : `policy "${policy.id}"`;
  const timeoutMs = policy.timeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const verdict = await Promise.race([
      // A policy judges the call; the request is frozen (the call already is), so it cannot change what it allows.
      Promise.resolve().then(() => policy.decide(deepFreeze(request))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    const decision = typeof verdict === "string" ? verdict : verdict?.decision;
    if (decision !== "allow" && decision !== "ask" && decision !== "deny") {
      const reason = `${who} answered ${JSON.stringify(verdict)}, not allow/ask/deny; denied (fail closed)`;
      return { decision: { decision: "deny", source, reason }, error: new Error(reason) };
    }
    const reason = typeof verdict === "string" ? undefined : verdict.reason;
    return { decision: { decision, source, reason: reason ?? `${who} said ${decision}` } };
  } catch (err) {
    const error = toError(err);
    const reason = `${who} failed (${error.message}); denied (fail closed)`;
    return { decision: { decision: "deny", source, reason }, error };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

export function policyApplies(policy: Policy, toolName: string): boolean {
  return !policy.actions || policy.actions.length === 0 || policy.actions.includes(toolName);
}

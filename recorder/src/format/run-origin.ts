import { serviceNameFromEnv, type AnyHookContext } from "@harnessx/core/extension";
import type { RunManifest } from "./event.js";

/**
 * The service a run belongs to, as `run.json` records it: the environment's, by OpenTelemetry's
 * rule (so a recording and the spans an exporter sends name the same service), else the agent's name.
 */
export function serviceName(agentName: string, env: NodeJS.ProcessEnv = process.env): string {
  return serviceNameFromEnv(env) ?? agentName;
}

/** A subagent's run names the run and the tool-call span it started under (`agent.asTool`); a top-level run nothing. */
export function linkOf(
  start: AnyHookContext & { event: "agent_start" },
): Pick<RunManifest, "parentRunId" | "parentSpanId"> {
  const parentRunId = start.data.parentRunId;
  if (!parentRunId) return {};
  return { parentRunId, ...(start.span?.parentSpanId ? { parentSpanId: start.span.parentSpanId } : {}) };
}

import { serviceNameFromEnv } from "@harnessx/core";

/**
 * The service a run belongs to, as `run.json` records it: the environment's, by OpenTelemetry's
 * rule (so a recording and the spans an exporter sends name the same service), else the agent's name.
 */
export function serviceName(agentName: string, env: NodeJS.ProcessEnv = process.env): string {
  return serviceNameFromEnv(env) ?? agentName;
}

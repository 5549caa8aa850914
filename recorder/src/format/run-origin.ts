/**
 * The service a run belongs to, as `run.json` records it: OpenTelemetry's `OTEL_SERVICE_NAME`
 * when it is set (so a recording and the spans an exporter sends name the same service), else
 * the agent's name.
 */
export function serviceName(agentName: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.OTEL_SERVICE_NAME?.trim();
  return configured ? configured : agentName;
}

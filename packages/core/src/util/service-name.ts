/**
 * The service name the environment gives, by OpenTelemetry's rule: `OTEL_SERVICE_NAME`, else
 * `service.name` in `OTEL_RESOURCE_ATTRIBUTES` (comma-separated `key=value`, values
 * percent-encoded); undefined when neither says. What a recording's `service` and an exporter's
 * `service.name` resource attribute agree on.
 */
export function serviceNameFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.OTEL_SERVICE_NAME?.trim();
  if (named) return named;
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== "service.name") continue;
    const value = decoded(pair.slice(at + 1).trim());
    if (value) return value;
  }
  return undefined;
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Runs `body` with every `OTEL_*` variable unset except `values`, then restores the environment:
 * the SDK and the exporter read these variables, so a test sees only the ones it sets.
 */
export async function withOtelEnv<T>(values: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.entries(process.env).filter(([key]) => key.startsWith("OTEL_"));
  for (const [key] of saved) delete process.env[key];
  Object.assign(process.env, values);
  try {
    return await body();
  } finally {
    for (const key of Object.keys(process.env)) if (key.startsWith("OTEL_")) delete process.env[key];
    for (const [key, value] of saved) process.env[key] = value;
  }
}

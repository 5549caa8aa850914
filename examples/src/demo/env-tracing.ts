import { OpenTelemetryExtension, type Extension } from "harnessx";
import type { Telemetry } from "harnessx/otel-setup";

export interface EnvTracing {
  /** Where spans go, for a log line ("OTLP http://...", "LangSmith https://..."). */
  readonly targets: string[];
  /** Fresh extension instances for one agent (an instance serves one agent). */
  createExtensions(): Extension[];
  /** Flushes and stops the OpenTelemetry SDK, if one was started. */
  shutdown(): Promise<void>;
}

export interface EnvTracingOptions {
  serviceName?: string;
  captureContent?: boolean;
  env?: Record<string, string | undefined>;
}

/**
 * Tracing as the environment asks for it: `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `..._TRACES_ENDPOINT`) starts the OpenTelemetry SDK with OTLP/HTTP;
 * `LANGSMITH_API_KEY` or `LANGSMITH_ENDPOINT` adds LangSmith. Returns
 * undefined when neither is set (the caller converts its recording instead).
 * The SDK wiring (`harnessx/otel-setup`) and `harnessx/langsmith` are loaded only when asked for.
 */
export async function tracingFromEnv(options: EnvTracingOptions = {}): Promise<EnvTracing | undefined> {
  const env = options.env ?? process.env;
  const otlp = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const langsmith = env.LANGSMITH_API_KEY || env.LANGSMITH_ENDPOINT;
  if (!otlp && !langsmith) return undefined;
  let telemetry: Telemetry | undefined;
  const targets: string[] = [];
  if (otlp) {
    const url =
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
      `${String(env.OTEL_EXPORTER_OTLP_ENDPOINT).replace(/\/+$/, "")}/v1/traces`;
    const { setupTelemetry } = await import("harnessx/otel-setup");
    telemetry = setupTelemetry({ serviceName: options.serviceName ?? "harnessx-demo", url });
    targets.push(`OTLP ${otlp}`);
  }
  if (langsmith) targets.push(`LangSmith ${env.LANGSMITH_ENDPOINT ?? "https://api.smith.langchain.com"}`);
  const { LangSmithExtension } = langsmith ? await import("harnessx/langsmith") : { LangSmithExtension: undefined };
  return {
    targets,
    createExtensions() {
      const out: Extension[] = [];
      if (telemetry)
        out.push(new OpenTelemetryExtension({ telemetry, captureContent: options.captureContent ?? false }));
      if (LangSmithExtension)
        out.push(
          new LangSmithExtension({
            clientConfig: {
              ...(env.LANGSMITH_ENDPOINT ? { apiUrl: env.LANGSMITH_ENDPOINT } : {}),
              ...(env.LANGSMITH_API_KEY ? { apiKey: env.LANGSMITH_API_KEY } : {}),
            },
          }),
        );
      return out;
    },
    async shutdown() {
      await telemetry?.shutdown();
    },
  };
}

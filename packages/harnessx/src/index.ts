// The one import users write: the runtime, the provider adapters, the artifact store, and the built-in extensions.
// Tracing here is the OpenTelemetry extension (`@opentelemetry/api` only); the OpenTelemetry SDK
// wiring, LangSmith and the converters are the subpaths `harnessx/otel-setup`, `harnessx/langsmith`
// and `harnessx/convert`, so that their optional peers load only when asked for.
export * from "@harnessx/core";
export * from "@harnessx/core/extension";
export * from "@harnessx/core/tracing";
export * from "@harnessx/discovery";
export * from "@harnessx/budgets";
export * from "@harnessx/prompt-cache";
export * from "@harnessx/providers";
export * from "@harnessx/artifacts";
export * from "@harnessx/spill";
export * from "@harnessx/mcp";
export * from "@harnessx/recorder";
export * from "@harnessx/exporters/otel";
// Both packages name the recorded-event shape; the recorder's is the source of truth.
export type { RecordedEvent } from "@harnessx/recorder";

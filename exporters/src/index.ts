// `@harnessx/exporters`: every entry at once, for compatibility. Importing it loads the OpenTelemetry
// SDK and `langsmith` (all optional peers must be installed); import a subpath instead:
// `/otel` (the extension, `@opentelemetry/api` only), `/otel-setup`, `/langsmith`, `/convert`.
export * from "./otel/index.js";
export * from "./otel-setup/index.js";
export * from "./langsmith/index.js";
export * from "./convert/index.js";

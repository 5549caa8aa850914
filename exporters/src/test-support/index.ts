// What other packages' tests use of the exporters' test support: `@harnessx/exporters/test-support` (source only, never built).
export { startLangSmithServer, type LangSmithMode, type LangSmithServer, type StoredRun } from "./langsmith-server.js";
export {
  startOtlpReceiver,
  refusedUrl,
  type OtlpReceiver,
  type ReceiverMode,
  type ReceiverAnswer,
  type ReceivedRequest,
} from "./otlp-receiver.js";
export { withOtelEnv } from "./otel-env.js";
export { packagesLoadedBy } from "./loaded-packages.js";

// What other packages' tests use of the CLI's test support: `@harnessx/cli/test-support` (source only, never built).
export {
  SUPPORT_SYSTEM,
  supportTools,
  supportScript,
  recordSupportRun,
  recordGuardedRun,
  recordFailedRun,
  recordBusyRun,
  tempDir,
} from "./recording.js";
export {
  TRACE_BIN,
  runTrace,
  snapshot,
  cliWorkspace,
  type CliRun,
  type CliWorkspace,
  type RunTraceOptions,
} from "./run-cli.js";

export { createProgram, runCli } from "./program.js";
export type { CommandSpec } from "./command-spec.js";
export { CommandContext, type CliIO, type GlobalOptions } from "./context.js";
export { CliError, ExitCode } from "./errors.js";
export { renderReportHtml } from "./report/html.js";
export {
  layoutReport,
  type ReportData,
  type ReportRun,
  type ReportSpan,
  type ReportEvent,
  type ReportLayout,
  type PlacedSpan,
} from "./report/model.js";
export { Pseudonymizer, type ScrubStats } from "./scrub/pseudonymizer.js";
export { loadScrubRules, DEFAULT_SCRUB_RULES, type ScrubRules, type PatternRule } from "./scrub/rules.js";
export { VIEWS } from "./commands/view.js";
export { CLI_VERSION } from "./version.js";

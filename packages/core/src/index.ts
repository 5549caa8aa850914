// The entry for application code: the agent, its options and results, tools, providers and
// errors. Extension authors import `@harnessx/core/extension`, span sinks `@harnessx/core/tracing`
// (docs/architecture.md, "Core's entries").
export { Agent, type AgentOptions, type ResumedRun } from "./engine/agent.js";
export {
  configOptions,
  type AgentConfig,
  type ContextOptions,
  type LimitOptions,
  type ModelRetryOptions,
} from "./engine/config.js";
export type { AgentInfo } from "./engine/agent-info.js";
export { RunHost, type RunHostOptions } from "./external/run-host.js";
export { HostedRun, FRAMEWORK_ATTRIBUTE, type HostedRunStart, type HostedRunEnd } from "./external/hosted-run.js";
export { HostedModelCall, HostedToolCall, type HostedToolEnd } from "./external/hosted-calls.js";
export { Pricer, type PricingOptions } from "./cost/pricer.js";
export type { RunLimit, RunLimitVerdict, RunProgress } from "./budgets/run-limit.js";
export { SubagentError, type SubagentInput, type SubagentToolOptions } from "./subagents/subagent-tool.js";
export type { DelegatedUsage } from "./subagents/parent-run.js";
export type { DurableStore, DurableOptions, Durability, InterruptedCallAction } from "./durable/durable-store.js";
export { FileDurableStore, MAX_JOURNAL_BYTES, type FileDurableStoreOptions } from "./durable/file-durable-store.js";
export { MAX_JOURNAL_LINE_BYTES, type JournalPiece } from "./durable/journal-lines.js";
export { ResumeError, type ResumeProblem } from "./durable/resume-error.js";
export { readResumePoint, parseJournal, type ResumePoint, type ParsedJournal } from "./durable/read-journal.js";
export type * from "./durable/journal-entry.js";
export { idempotencyKeyOf } from "./tools/idempotency.js";
export { addCost, modelPriceProblem, type CallCost, type ModelPrice, type RunCost } from "./cost/call-cost.js";
export type {
  RunResult,
  RunUsage,
  RunStatus,
  RunEvent,
  RunOptions,
  PendingApproval,
  ApprovalDecision,
} from "./engine/run-types.js";
export type { RunStream } from "./engine/run-stream.js";
export { RUN_LABEL_LIMITS, type RunMetadata, type RunMetadataValue } from "./engine/run-labels.js";
export { prefixKey } from "./prompt/system-prompt.js";
export { parseSystemPrompt, renderSystemPrompt, type RenderedFragment } from "./prompt/sections.js";
export { condense, planCondense, type CondenseOutcome, type CondensePlan } from "./engine/condense.js";
export { SummarizingCompactor, type SummarizingCompactorOptions } from "./compaction/summarizing-compactor.js";
export * from "./types/content.js";
export * from "./types/provider.js";
export * from "./errors.js";
export { registration, type Registration } from "./registration.js";
export {
  tool,
  renderToolOutput,
  type Tool,
  type ToolSpec,
  type ToolSettings,
  type ToolExecutionContext,
  type ToolRetryOptions,
  type ReplayPolicy,
} from "./tools/tool.js";
export type { ToolSummary } from "./tools/tool-summary.js";
export { ToolRegistry, type RegisterToolOptions as ToolRegistryOptions } from "./tools/registry.js";
export {
  compileSchema,
  isZodSchema,
  type JsonSchema,
  type InputSchema,
  type CompiledSchema,
  type ValidationOutcome,
} from "./tools/schema.js";
export { writeTodosTool, summarizeTodos, type TodoItem, type TodoStatus } from "./tools/todos.js";
export { cutForModel, cutPoint } from "./tools/truncate.js";
export {
  isCommandName,
  parseCommandLine,
  splitArguments,
  substituteArguments,
  type CommandLine,
} from "./commands/command-line.js";
export type { CommandInfo, CommandOutcome, CommandSpec } from "./commands/command-registry.js";
export { renderTemplate, templateParameters, type TemplateValue } from "./templates/prompt-template.js";
export type { PromptTemplates, TemplateInfo, TemplateSpec } from "./templates/template-registry.js";
export { harnessxHome, trustFilePath } from "./locations/home.js";
export { defaultStoreDir, findStoreDir, noteStoreDir, STORE_FOLDER } from "./locations/store-dir.js";
export { ConversationMemory } from "./memory/conversation.js";
export {
  FallbackProvider,
  type FallbackChain,
  type FallbackEntry,
  type ProviderOption,
} from "./providers/fallback-provider.js";
export { FallbackError, switchesProvider, type FallbackFailure, type ProviderRoute } from "./engine/fallback.js";
export {
  ScriptedProvider,
  parseArguments,
  type ScriptStep,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedError,
  type ScriptedProviderOptions,
} from "./providers/scripted.js";

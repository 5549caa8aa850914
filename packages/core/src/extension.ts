// The entry for extension authors: the extension contract and its context, hooks and their
// payloads, middleware, permissions and policies, custom events and messages, redaction, and the
// helpers the built-ins share (optional packages, regular files, ids). Application code imports
// `@harnessx/core`.
export {
  openRegularFile,
  readRegularFile,
  RefusedFileError,
  type ReadRegularFileOptions,
  type RefusedFileProblem,
  type RegularFileOptions,
} from "./files/regular-file.js";
export {
  MCP_EXTENSION,
  MCP_TOOL_PREFIX,
  PermissionManager,
  type PermissionManagerOptions,
} from "./permissions/permission-manager.js";
export type { Permission, PermissionDecision } from "./permissions/decision.js";
export type { Policy, PolicyRequest, PolicyVerdict } from "./permissions/policy.js";
export {
  Middleware,
  type CompactAnswer,
  type CompactReason,
  type CompactRequest,
  type MiddlewareLike,
  type MiddlewareStage,
} from "./middleware/middleware.js";
export { MiddlewarePipeline } from "./middleware/pipeline.js";
export { HookEvent, ALL_HOOK_EVENTS, REPORTED_EVENTS, type ReportedEvent } from "./hooks/events.js";
export { HookBus } from "./hooks/hook-bus.js";
export type * from "./hooks/payloads.js";
export type { CustomData, CustomEvent, CustomEventName, CustomEvents } from "./hooks/custom-events.js";
export {
  PROMPT_CACHE_BREAK,
  type HistoryChange,
  type HistoryRewriteCause,
  type PrefixPart,
  type PromptCacheBreak,
  type SystemPromptChange,
  type ToolListChange,
} from "./spans/prompt-cache-break.js";
export {
  Extension,
  defineExtension,
  toExtension,
  type ExtensionClass,
  type ExtensionDefinition,
  type ExtensionEntry,
  type ExtensionFactory,
  type ExtensionHooks,
  type ExtensionLike,
  type JsonValue,
  type LoadedExtension,
} from "./extensions/extension.js";
export type {
  ExtensionContext,
  PromptProvider,
  RegisterToolOptions,
  ReportedErrorSource,
  ToolHandler,
} from "./extensions/extension-context.js";
export type { StatusProvider } from "./extensions/extension-services.js";
export type { StatusLine } from "./extensions/status-lines.js";
export {
  contribution,
  type ContributionMembers,
  type ExtensionContribution,
  type ExtensionSummary,
  type CommandRecord,
  type LifecycleContribution,
  type MessageTypeRecord,
  type MiddlewareRecord,
  type ObserverRecord,
  type PolicyContribution,
  type PromptFragment,
  type PromptTier,
  type TemplateRecord,
} from "./extensions/contribution.js";
export type { TrustLevel } from "./extensions/trust-level.js";
export type { DiscoveredMcpServer } from "./extensions/discovered-mcp-server.js";
export type { SavedExtensionState } from "./session/session-state.js";
export { Redactor } from "./redact/redactor.js";
export type { Replacements } from "./redact/replacements.js";
export type { SecretSpan } from "./redact/cuts.js";
export { errorToJson } from "./redact/error-json.js";
export {
  DEFAULT_PATTERNS,
  DEFAULT_REDACTION_RULES,
  DEFAULT_SENSITIVE_KEYS,
  luhnValid,
  resolveRedaction,
  type RedactionDescription,
  type RedactionOptions,
  type RedactionPattern,
  type RedactionRules,
} from "./redact/rules.js";
export {
  isCustomEntry,
  type ConversationEntry,
  type CustomEntry,
  type CustomMessageData,
  type CustomMessages,
  type CustomMessageType,
} from "./messages/custom-messages.js";
export type { MessageTypeSpec } from "./messages/message-types.js";
export { projectConversation } from "./messages/projection.js";
export type { SessionState } from "./session/session-state.js";
export { assertJsonCompatible } from "./session/json-check.js";
export { newId } from "./util/ids.js";
export { packageVersion } from "./util/package-version.js";
export { importOptional, type OptionalPackages } from "./util/optional-package.js";
export { serviceNameFromEnv } from "./util/service-name.js";

import type { CommandRegistry } from "../commands/command-registry.js";
import type { AgentInfo } from "../engine/agent-info.js";
import type { ReportedEvent } from "../hooks/events.js";
import type { HookBus } from "../hooks/hook-bus.js";
import type { ErrorSource, HookPayloads, RunAttributeValue } from "../hooks/payloads.js";
import type { CustomEntry } from "../messages/custom-messages.js";
import type { MessageTypeRegistry } from "../messages/message-types.js";
import type { MiddlewarePipeline } from "../middleware/pipeline.js";
import type { Policy } from "../permissions/policy.js";
import type { Redactor } from "../redact/redactor.js";
import type { SpanScopes } from "../spans/scopes.js";
import type { TemplateRegistry } from "../templates/template-registry.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { ArtifactRef } from "../types/content.js";
import type { Registry } from "../util/registry.js";
import type { SessionState } from "../session/session-state.js";
import type { PromptFragment } from "./contribution.js";
import type { RunLimit } from "../budgets/run-limit.js";

/** A status provider: one short line about the session (tokens and cost so far, a mode), or nothing. */
export type StatusProvider = () => string | undefined | null;

/** The agent's parts a context writes to; never handed to an extension. */
export interface ExtensionServices {
  info: AgentInfo;
  redactor: Redactor;
  spans: SpanScopes;
  tools: ToolRegistry;
  hooks: HookBus;
  middleware: MiddlewarePipeline;
  prompts: Registry<PromptFragment>;
  policies: Registry<Policy>;
  runLimits: Registry<RunLimit>;
  state: Map<string, unknown>;
  commands: CommandRegistry;
  templates: TemplateRegistry;
  messageTypes: MessageTypeRegistry;
  /** Adds a custom entry to the conversation and reports it (`MESSAGE_APPENDED`). */
  appendEntry(entry: CustomEntry<string>, text: string | undefined, toModel: boolean): Promise<void>;
  statuses: Registry<StatusProvider>;
  runAttributes: Registry<Readonly<Record<string, RunAttributeValue>>>;
  /** A JSON copy of the session as `saveSession()` makes it. */
  sessionSnapshot(): SessionState;
  emitCustom(extension: string, name: string, data: unknown, artifacts?: readonly ArtifactRef[]): Promise<void>;
  emitError(source: ErrorSource, error: Error, extension: string, dropped?: number): Promise<void>;
  emitReported<E extends ReportedEvent>(event: E, data: HookPayloads[E]): Promise<void>;
}

import type { AgentInfo } from "../engine/agent-info.js";
import type { Redactor } from "../redact/redactor.js";
import type { SpanIdSource } from "../spans/id-source.js";
import type { HookEvent, ReportedEvent } from "../hooks/events.js";
import type { AnyHookContext, ErrorSource, HookCallback, HookPayloads, RunAttributeValue } from "../hooks/payloads.js";
import type { MiddlewareLike } from "../middleware/middleware.js";
import type { Policy } from "../permissions/policy.js";
import type { Registration } from "../registration.js";
import type { InputSchema } from "../tools/schema.js";
import type { Tool, ToolExecutionContext, ToolSettings } from "../tools/tool.js";
import type { CustomEventName, CustomEvents } from "../hooks/custom-events.js";
import type { ArtifactRef } from "../types/content.js";
import type { CommandSpec } from "../commands/command-registry.js";
import type { TemplateSpec } from "../templates/template-registry.js";
import type { CustomMessageData, CustomMessageType } from "../messages/custom-messages.js";
import type { MessageTypeSpec } from "../messages/message-types.js";
import type { StatusProvider } from "./extension-services.js";
import type { SessionState } from "../session/session-state.js";
import type { PromptFragment } from "./contribution.js";
import type { RunLimit } from "../budgets/run-limit.js";

/** A prompt provider returns text for the system prompt, or nothing. */
export type PromptProvider = () => string | undefined | null;

/** What `ctx.registerTool` takes besides the tool or handler; each field set overrides the tool's own. */
export interface RegisterToolOptions extends ToolSettings {
  /** The tool's name; required with a bare handler (1-64 letters, digits, `_` or `-`). */
  name?: string;
  /** What the tool does, for the model. Default with a bare handler: `""`. */
  description?: string;
  /** The input schema (JSON Schema or zod v4). Default with a bare handler: an object with any properties. */
  inputSchema?: InputSchema;
  /** Replaces a tool this extension registered earlier; closing restores it. Another owner's tool cannot be taken over. */
  replace?: boolean;
}

/** A bare tool handler for `ctx.registerTool`: gets the validated input, returns a string or JSON value; a throw makes an `isError` result. */
export type ToolHandler = (input: Record<string, unknown>, context: ToolExecutionContext) => unknown;

/** Where an extension's own failure report comes from (`reportError`). */
export type ReportedErrorSource = Extract<ErrorSource, "extension" | "exporter" | "recorder">;

/**
 * What an extension registers through: every operation is owned (undone on close or a
 * failed install) and attributed to the extension. It holds no handle on the agent: `info`
 * is a read-only view, and no registry, permission manager or memory is reachable from here.
 */
export interface ExtensionContext {
  /** The name of the extension this context belongs to; everything registered through it is attributed to it. */
  readonly extension: string;
  /** The read-only view of the agent: name, session, model, config, tools and extensions. */
  readonly info: AgentInfo;
  /** The agent's redaction policy: apply it to everything the extension writes or sends. */
  readonly redactor: Redactor;
  /**
   * Offers a tool to the model: a `Tool`, or a handler with `options.name`. Throws when the name is
   * taken by the application or another extension, or when the tool breaks the contribution rules.
   */
  registerTool(toolOrHandler: Tool | ToolHandler, options?: RegisterToolOptions): Registration;
  /** Adds a middleware to the agent's pipeline, after those already there; its failures name this extension. */
  addMiddleware(middleware: MiddlewareLike): Registration;
  /** Observes one event (see `HookEvent`). */
  onHook<E extends HookEvent>(event: E, callback: HookCallback<E>): Registration;
  /** Observes every event. */
  onAnyHook(callback: (ctx: AnyHookContext) => void | Promise<void>): Registration;
  /** Adds a labelled prompt section below the operator's text (tier `guidance` or `context`). */
  addPromptFragment(fragment: PromptFragment): Registration;
  /** A `guidance` fragment whose text is asked for at each model call. */
  registerPromptProvider(provider: PromptProvider): Registration;
  /** Adds a veto over tool calls (deny-wins: its `allow` never widens what others decided). */
  addPolicy(policy: Policy): Registration;
  /**
   * Adds a check made before every model call of every run (cost, tokens, calls, time so far):
   * its verdict ends the run with a last tool-free answer or a failure. It can only end a run
   * sooner; a limit that throws fails the run.
   */
  addRunLimit(limit: RunLimit): Registration;
  /**
   * Makes this extension the source of the agent's span ids (the OpenTelemetry extension starts
   * its live span and answers with its ids, so recordings and backends name spans alike). One per agent.
   */
  useSpanIds(source: SpanIdSource): Registration;
  /** Emits a declared `CUSTOM` event `{ extension, name, data, artifacts? }` to every observer (see `CustomEvents`). */
  emit<K extends CustomEventName>(
    name: K,
    data: CustomEvents[K],
    options?: { artifacts?: readonly ArtifactRef[] },
  ): Promise<void>;
  /**
   * Emits one of the events that report an extension's own work (`REPORTED_EVENTS`: a skill
   * loaded, knowledge read, a sandboxed statement run, a checkpoint taken) to every observer.
   * The engine's own events (runs, model and tool calls) cannot be emitted from here. Each
   * carries `extension`: this extension's name, whatever `data` said.
   */
  report<E extends ReportedEvent>(event: E, data: HookPayloads[E]): Promise<void>;
  /** Reports a failure of the extension's own work as an `ERROR` event attributed to it. */
  reportError(error: Error, details?: { source?: ReportedErrorSource; dropped?: number }): Promise<void>;
  /**
   * Registers a slash command: `agent.run("/name args")` calls `handler(args, ctx)` before anything
   * reaches the model, and sends what it returns as the user message (nothing: the command only acted).
   */
  registerCommand(name: string, spec: CommandSpec<ExtensionContext> & { source?: string }): Registration;
  /** Registers a prompt template (`{{parameter}}` placeholders) that `agent.templates.render` fills in. */
  registerTemplate(spec: TemplateSpec): Registration;
  /**
   * Declares a custom conversation entry type: whether (`toModel`) and how its entries reach the
   * model, and how they read to people (`render`). Types are typed by merging into `CustomMessages`.
   */
  registerMessageType<K extends CustomMessageType>(type: K, spec: MessageTypeSpec<K>): Registration;
  /**
   * Appends an entry of a type this extension registered to the conversation: it is saved with
   * the session, recorded (`MESSAGE_APPENDED`, with its rendered text) and projected at each request.
   */
  appendMessage<K extends CustomMessageType>(type: K, data: CustomMessageData<K>): Promise<void>;
  /**
   * Attributes every run's span carries from now on (the `invoke_agent` span, live and in
   * recordings), e.g. `{ "mcp.servers": ["github"] }`. Keys of the `gen_ai.` and `harnessx.`
   * namespaces belong to the mapping and are ignored.
   */
  addRunAttributes(attributes: Readonly<Record<string, RunAttributeValue>>): Registration;
  /** Registers a status line (`agent.status()` asks every provider, for a UI's status bar). */
  registerStatus(provider: StatusProvider): Registration;
  /**
   * A copy of the session as `agent.saveSession()` makes it (conversation, todos, extensions'
   * state): for checkpoints. A copy: changing it changes nothing in the agent.
   */
  sessionSnapshot(): SessionState;
  /** Shared agent metadata; prefix keys with your extension's name. */
  getState<T = unknown>(key: string, fallback?: T): T | undefined;
  /** Sets shared agent metadata that every extension's `getState` reads; kept in memory only, never saved with the session. */
  setState(key: string, value: unknown): void;
}

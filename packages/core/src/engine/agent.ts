import { HarnessError } from "../errors.js";
import type { ExtensionServices, StatusProvider } from "../extensions/extension-services.js";
import { statusLines, type StatusLine } from "../extensions/status-lines.js";
import type { ExtensionContribution, PromptFragment } from "../extensions/contribution.js";
import { ExtensionHost } from "../extensions/host.js";
import { extensionEmitters } from "../extensions/extension-emitters.js";
import type { RunAttributeValue } from "../hooks/payloads.js";
import { HookEvent } from "../hooks/events.js";
import { Redactor } from "../redact/redactor.js";
import { SpanScopes } from "../spans/scopes.js";
import { HookBus } from "../hooks/hook-bus.js";
import { ConversationMemory } from "../memory/conversation.js";
import { MiddlewarePipeline } from "../middleware/pipeline.js";
import { PermissionManager } from "../permissions/permission-manager.js";
import type { Policy } from "../permissions/policy.js";
import type { RunLimit } from "../budgets/run-limit.js";
import { ToolRegistry } from "../tools/registry.js";
import { summarizeTodos, writeTodosTool, type TodoItem } from "../tools/todos.js";
import { summarizeTool } from "../tools/tool-summary.js";
import type { ModelProvider } from "../types/provider.js";
import { newId } from "../util/ids.js";
import { readOnlySnapshot } from "../util/read-only.js";
import { Registry } from "../util/registry.js";
import { RunLoop } from "./run-loop.js";
import { makeRunStream, StreamSink, type RunStream } from "./run-stream.js";
import type { ApprovalDecision, RunOptions, RunResult } from "./run-types.js";
import { NO_SINK, type EngineServices, type RunSink } from "./services.js";
import { SystemPromptComposer } from "../prompt/system-prompt.js";
import { createAgentInfo, type AgentInfo } from "./agent-info.js";
import { resolveConfig, type AgentConfig } from "./config.js";
import { toModelProvider } from "../providers/fallback-provider.js";
import { Pricer } from "../cost/pricer.js";
import type { AgentOptions } from "./agent-options.js";
import { readSessionState, type SessionState } from "../session/session-state.js";
import { assertJsonCompatible } from "../session/json-check.js";
import { CommandRegistry, type CommandInfo } from "../commands/command-registry.js";
import { TemplateRegistry, type PromptTemplates } from "../templates/template-registry.js";
import { MessageTypeRegistry } from "../messages/message-types.js";
import { WriteQueue } from "../tools/write-queue.js";
import { TurnGate } from "./turn-gate.js";
import type { DurableStore } from "../durable/durable-store.js";
import { checkDurable } from "../durable/check-durable.js";
import { restoreRun } from "../durable/restore-run.js";
import { subagentTool, type ParentRun, type SubagentToolOptions, type Tool } from "../subagents/subagent-tool.js";

export type { AgentOptions } from "./agent-options.js";

/** Each agent's engine parts: `RunHost` feeds runs other frameworks made through the same ones (core-internal). */
const engineParts = new WeakMap<Agent, EngineServices>();
export const engineServicesOf = (agent: Agent): EngineServices => engineParts.get(agent)!;

/** What `Agent.resumeRun` returns. */
export interface ResumedRun {
  /** The agent built to resume the run: close it when done. */
  agent: Agent;
  /** The resumed run's outcome. */
  result: RunResult;
}

/** The model/tool loop with its extension surface. Runs one turn at a time. */
export class Agent implements AsyncDisposable {
  /** The resolved settings, every default filled in; deeply frozen. */
  readonly config: Readonly<AgentConfig>;
  /** The model backend from `AgentOptions.provider` (a `FallbackProvider` when it named a chain). */
  readonly provider: ModelProvider;
  /** The tools offered to the model: `AgentOptions.tools`, `write_todos` when `todos` is on, and extensions' tools. */
  readonly tools = new ToolRegistry();
  /** The lifecycle events of runs, tool calls and extensions; subscribe to observe the agent. */
  readonly hooks: HookBus;
  /** The middleware around model calls, tool calls and compaction (the one from `AgentOptions`, or a new one). */
  readonly middleware: MiddlewarePipeline;
  /** The conversation so far: kept across runs, saved with `saveSession`. */
  readonly memory = new ConversationMemory();
  /** The user's tool permission rules (the one from `AgentOptions`, or a new allow-by-default one). */
  readonly permissions: PermissionManager;
  /** This agent's session id: `AgentOptions.sessionId` or a generated one. */
  readonly sessionId: string;
  /** The read-only view extensions and observers get. */
  readonly info: AgentInfo;
  /** The one redaction policy extensions apply to what they write or send. */
  readonly redactor: Redactor;
  /** Prompt templates extensions registered (`prompts/*.md` through `discover()`): list, render into input. */
  readonly templates: PromptTemplates;
  private readonly commandRegistry = new CommandRegistry();
  private readonly templateRegistry = new TemplateRegistry();
  private readonly messageTypes = new MessageTypeRegistry();
  private readonly statuses = new Registry<StatusProvider>();
  private readonly runAttributes = new Registry<Readonly<Record<string, RunAttributeValue>>>();
  private readonly prompts = new Registry<PromptFragment>();
  private readonly spans = new SpanScopes();
  private readonly policies = new Registry<Policy>();
  private readonly runLimits = new Registry<RunLimit>();
  private readonly state = new Map<string, unknown>();
  private readonly todos: { current: TodoItem[] } = { current: [] };
  private readonly extensions: ExtensionHost;
  private readonly services: EngineServices;
  private readonly gate = new TurnGate();

  constructor(options: AgentOptions) {
    if (!options?.provider) throw new HarnessError("no_provider", "Agent needs a provider (e.g. new ScriptedProvider(steps) or new OpenAIProvider())");
    this.provider = toModelProvider(options.provider);
    this.config = resolveConfig({ ...options, provider: this.provider });
    this.sessionId = options.sessionId ?? newId("session");
    this.redactor = new Redactor(options.redact);
    this.templates = this.templateRegistry;
    this.info = createAgentInfo({
      sessionId: this.sessionId,
      provider: this.provider.name,
      config: this.config,
      toolNames: () => this.tools.names(),
      tools: () => this.tools.list().map(summarizeTool),
      extensions: () => this.extensions?.summaries() ?? [],
    });
    this.hooks = new HookBus(this.info);
    this.middleware = options.middleware ?? new MiddlewarePipeline();
    this.permissions = options.permissions ?? new PermissionManager();
    for (const t of options.tools ?? []) this.tools.register(t);
    if (this.config.todos) this.tools.register(writeTodosTool((todos) => this.updateTodos(todos)));
    const extensionServices: ExtensionServices = {
      info: this.info,
      redactor: this.redactor,
      spans: this.spans,
      tools: this.tools,
      hooks: this.hooks,
      middleware: this.middleware,
      prompts: this.prompts,
      policies: this.policies,
      runLimits: this.runLimits,
      state: this.state,
      commands: this.commandRegistry,
      templates: this.templateRegistry,
      messageTypes: this.messageTypes,
      statuses: this.statuses,
      runAttributes: this.runAttributes,
      sessionSnapshot: () => structuredClone(this.saveSession()),
      ...extensionEmitters(this.hooks, this.memory),
    };
    this.extensions = new ExtensionHost(options.extensions ?? [], extensionServices, { maxFragmentChars: this.config.maxPromptFragmentChars }, (extension, error) =>
      this.hooks.emit(HookEvent.ERROR, { source: "extension", error, extension }),
    );
    const prompt = new SystemPromptComposer(this.config.system, this.prompts, this.config.maxPromptFragmentChars, (owner, error) => {
      void this.hooks.emit(HookEvent.ERROR, { source: "prompt_provider", error, ...(owner ? { extension: owner } : {}) });
    });
    this.services = {
      info: this.info,
      config: this.config,
      provider: this.provider,
      tools: this.tools,
      hooks: this.hooks,
      middleware: this.middleware,
      memory: this.memory,
      permissions: this.permissions,
      policies: this.policies,
      runLimits: this.runLimits,
      prompt,
      spans: this.spans,
      extensions: this.extensions,
      commands: this.commandRegistry,
      messageTypes: this.messageTypes,
      todos: this.todos,
      writes: new WriteQueue(),
      pricer: new Pricer({ prices: this.config.prices, ...(this.config.priceFile !== undefined ? { priceFile: this.config.priceFile } : {}) }),
      ...(options.durable ? { durable: { options: checkDurable(options.durable), redactor: this.redactor } } : {}),
      runAttributes: () => (this.runAttributes.size === 0 ? undefined : Object.assign({}, ...this.runAttributes.list().map((e) => e.value))),
    };
    engineParts.set(this, this.services);
  }

  /** Names of installed extensions, in install order. */
  get extensionNames(): string[] {
    return this.extensions.names();
  }

  /** Every extension's complete contribution (declared and registered), deeply frozen, in install order. */
  contributions(): ExtensionContribution[] {
    return this.extensions.contributions();
  }

  /** The slash commands extensions registered, by name: what `run("/name args")` accepts. */
  commands(): CommandInfo[] {
    return this.commandRegistry.list();
  }

  /**
   * The status lines extensions registered (`ctx.registerStatus`), in install order: what a UI's
   * status bar shows. A provider that throws or returns nothing is left out.
   */
  status(): StatusLine[] {
    return statusLines(this.statuses);
  }

  /** Runs one user turn to a terminal result or an approval wait. Never rejects for run failures. */
  run(input: string, options: RunOptions = {}): Promise<RunResult> {
    return this.startRun(input, NO_SINK, options);
  }

  /** Like `run`, yielding text deltas, tool call starts and ends, waits, and the result. */
  runStream(input: string, options: RunOptions = {}): RunStream {
    const sink = new StreamSink();
    return makeRunStream(sink, this.startRun(input, sink, options));
  }

  /** This agent as another's tool (a subagent): each call is a run of it under the caller's call, permissions and budget. */
  asTool(options: SubagentToolOptions): Tool {
    return subagentTool(options, (input, signal, parent) => this.startRun(input, NO_SINK, { signal }, parent));
  }

  /**
   * Continues a run: one that ended `awaiting_approval`, given a decision for every pending call;
   * or, given a run id, a durable run rebuilt from its journal (`AgentOptions.durable`), usually
   * in a new process after the one running it died. The rebuilt run keeps its id and trace and
   * goes on from its last committed phase: committed model replies and tool results are not
   * asked for again. Rejects with `ResumeError` when the run cannot be resumed.
   */
  resume(target: Record<string, ApprovalDecision> | string, options: RunOptions = {}): Promise<RunResult> {
    return this.resumeWith(target, NO_SINK, options);
  }

  /** Like `resume`, yielding events as `runStream` does. */
  resumeStream(target: Record<string, ApprovalDecision> | string, options: RunOptions = {}): RunStream {
    const sink = new StreamSink();
    return makeRunStream(sink, this.resumeWith(target, sink, options));
  }

  /**
   * Builds an agent journaling to `store` and resumes `runId` with it: `agent.resume(runId)` for a
   * process that only has to finish a crashed run. Close the agent when done.
   */
  static async resumeRun(store: DurableStore, runId: string, options: AgentOptions, runOptions: RunOptions = {}): Promise<ResumedRun> {
    const agent = new Agent({ ...options, durable: { ...options.durable, store } });
    return { agent, result: await agent.resume(runId, runOptions) };
  }

  private startRun(input: string, sink: RunSink, options: RunOptions, parent?: ParentRun): Promise<RunResult> {
    return this.gate.begin(async () => {
      if (typeof input !== "string") throw new TypeError("run(input) needs a string");
      const loop = new RunLoop({ services: this.services, runId: newId("run"), input, parent });
      return { loop, run: loop.start(sink, options.signal) };
    });
  }

  private resumeWith(target: Record<string, ApprovalDecision> | string, sink: RunSink, options: RunOptions): Promise<RunResult> {
    if (typeof target !== "string") return this.gate.continueWaiting((loop) => loop.resume(target, sink, options.signal));
    return this.gate.begin(async () => {
      const { input, restored } = await restoreRun(this.services.durable, this.sessionId, target, (state) => this.restore(state));
      const loop = new RunLoop({ services: this.services, runId: target, input, restored });
      return { loop, run: loop.start(sink, options.signal) };
    });
  }

  private async updateTodos(todos: TodoItem[]): Promise<void> {
    this.todos.current = todos;
    await this.hooks.emit(HookEvent.TODOS_UPDATED, { todos, ...summarizeTodos(todos) });
  }

  /** The task list the model keeps with `write_todos`. */
  get todoList(): readonly TodoItem[] {
    return this.todos.current;
  }

  /** The conversation and each extension's state, as JSON-compatible data. */
  saveSession(): SessionState {
    const state: SessionState = {
      format: "harnessx.session",
      version: 1,
      sessionId: this.sessionId,
      messages: this.memory.entries.slice(),
      todos: this.todos.current.slice(),
      extensions: this.extensions.saveStates(),
    };
    assertJsonCompatible(state);
    return state;
  }

  /** Restores saved state into this agent; refuses a wrong format, version or shape with a clear error. */
  async loadSession(state: unknown): Promise<void> {
    if (this.gate.busy) throw new HarnessError("agent_busy", "cannot load a session while a turn is running");
    await this.restore(state);
  }

  private async restore(state: unknown): Promise<void> {
    const session = readSessionState(state);
    await this.extensions.loadStates(session.extensions);
    this.memory.replace(readOnlySnapshot(session.messages)); // frozen copies: the caller's objects stay the caller's
    this.todos.current = session.todos;
  }

  /** Runs every extension teardown (reverse install order); throws one AggregateError of the failures. */
  async close(): Promise<void> {
    if (!(await this.gate.close())) return;
    await this.extensions.close();
    await this.services.durable?.options.store.close();
  }

  /** Same as `close()`, for `await using agent = new Agent(...)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

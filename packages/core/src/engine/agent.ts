import { HarnessError } from "../errors.js";
import { statusLines, type StatusLine } from "../extensions/status-lines.js";
import type { ExtensionContribution } from "../extensions/contribution.js";
import { ExtensionHost } from "../extensions/host.js";
import { HookEvent } from "../hooks/events.js";
import type { Redactor } from "../redact/redactor.js";
import type { HookBus } from "../hooks/hook-bus.js";
import type { ConversationMemory } from "../memory/conversation.js";
import type { MiddlewarePipeline } from "../middleware/pipeline.js";
import type { PermissionManager } from "../permissions/permission-manager.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { TodoItem } from "../tools/todos.js";
import type { ModelProvider } from "../types/provider.js";
import { newId } from "../util/ids.js";
import { readOnlySnapshot } from "../util/read-only.js";
import { RunLoop } from "./run-loop.js";
import { makeRunStream, StreamSink, type RunStream } from "./run-stream.js";
import type { ApprovalDecision, RunOptions, RunResult } from "./run-types.js";
import { NO_SINK, type EngineServices, type RunSink } from "./services.js";
import type { AgentInfo } from "./agent-info.js";
import type { AgentConfig } from "./config.js";
import type { AgentOptions } from "./agent-options.js";
import { checkRunLabels, mergeRunLabels, type RunLabels } from "./run-labels.js";
import { engineServices, extensionServices, makeAgentParts, type AgentParts } from "./agent-parts.js";
import { readSessionState, type SessionState } from "../session/session-state.js";
import { assertJsonCompatible } from "../session/json-check.js";
import type { CommandInfo } from "../commands/command-registry.js";
import type { PromptTemplates } from "../templates/template-registry.js";
import { TurnGate } from "./turn-gate.js";
import type { DurableStore } from "../durable/durable-store.js";
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
  readonly tools: ToolRegistry;
  /** The lifecycle events of runs, tool calls and extensions; subscribe to observe the agent. */
  readonly hooks: HookBus;
  /** The middleware around model calls, tool calls and compaction (the one from `AgentOptions`, or a new one). */
  readonly middleware: MiddlewarePipeline;
  /** The conversation so far: kept across runs, saved with `saveSession`. */
  readonly memory: ConversationMemory;
  /** The user's tool permission rules (the one from `AgentOptions`, or a new allow-by-default one). */
  readonly permissions: PermissionManager;
  /** This agent's session id: `AgentOptions.sessionId` or a generated one. */
  readonly sessionId: string;
  /** `AgentOptions.metadata` and `tags`, checked: what every run starts from. */
  private readonly labels: RunLabels;
  /** The read-only view extensions and observers get. */
  readonly info: AgentInfo;
  /** The one redaction policy extensions apply to what they write or send. */
  readonly redactor: Redactor;
  /** Prompt templates extensions registered (`prompts/*.md` through `discover()`): list, render into input. */
  readonly templates: PromptTemplates;
  private readonly parts: AgentParts;
  private readonly extensions: ExtensionHost;
  private readonly services: EngineServices;
  private readonly gate = new TurnGate();

  constructor(options: AgentOptions) {
    if (!options?.provider)
      throw new HarnessError(
        "no_provider",
        "Agent needs a provider (e.g. new ScriptedProvider(steps) or new OpenAIProvider())",
      );
    const parts = makeAgentParts(options, () => this.extensions?.summaries() ?? []);
    this.parts = parts;
    this.config = parts.config;
    this.provider = parts.provider;
    this.sessionId = parts.sessionId;
    this.redactor = parts.redactor;
    this.info = parts.info;
    this.tools = parts.tools;
    this.hooks = parts.hooks;
    this.middleware = parts.middleware;
    this.memory = parts.memory;
    this.permissions = parts.permissions;
    this.templates = parts.templates;
    const forExtensions = extensionServices(parts, () => structuredClone(this.saveSession()));
    this.extensions = new ExtensionHost(
      options.extensions ?? [],
      forExtensions,
      { maxFragmentChars: this.config.maxPromptFragmentChars },
      (extension, error) => this.hooks.emit(HookEvent.ERROR, { source: "extension", error, extension }),
    );
    this.services = engineServices(parts, this.extensions, options.durable);
    this.labels = checkRunLabels(options, "AgentOptions");
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
    return this.parts.commands.list();
  }

  /**
   * The status lines extensions registered (`ctx.registerStatus`), in install order: what a UI's
   * status bar shows. A provider that throws or returns nothing is left out.
   */
  status(): StatusLine[] {
    return statusLines(this.parts.statuses);
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
  static async resumeRun(
    store: DurableStore,
    runId: string,
    options: AgentOptions,
    runOptions: RunOptions = {},
  ): Promise<ResumedRun> {
    const agent = new Agent({ ...options, durable: { ...options.durable, store } });
    return { agent, result: await agent.resume(runId, runOptions) };
  }

  private startRun(input: string, sink: RunSink, options: RunOptions, parent?: ParentRun): Promise<RunResult> {
    return this.gate.begin(async () => {
      if (typeof input !== "string") throw new TypeError("run(input) needs a string");
      const labels = this.runLabels(options);
      const loop = new RunLoop({ services: this.services, runId: newId("run"), input, parent, labels });
      return { loop, run: loop.start(sink, options.signal) };
    });
  }

  /** The run's labels: its options' over the agent's, checked (a `ConfigError` rejects the run). */
  private runLabels(options: RunOptions): RunLabels {
    return mergeRunLabels(this.labels, checkRunLabels(options, "run options"));
  }

  private resumeWith(
    target: Record<string, ApprovalDecision> | string,
    sink: RunSink,
    options: RunOptions,
  ): Promise<RunResult> {
    if (typeof target !== "string")
      return this.gate.continueWaiting((loop) => loop.resume(target, sink, options.signal));
    return this.gate.begin(async () => {
      const { input, restored } = await restoreRun(this.services.durable, this.sessionId, target, (state) =>
        this.restore(state),
      );
      const loop = new RunLoop({
        services: this.services,
        runId: target,
        input,
        restored,
        labels: this.runLabels(options),
      });
      return { loop, run: loop.start(sink, options.signal) };
    });
  }

  /** The task list the model keeps with `write_todos`. */
  get todoList(): readonly TodoItem[] {
    return this.parts.todos.current;
  }

  /** The conversation and each extension's state, as JSON-compatible data. */
  saveSession(): SessionState {
    const state: SessionState = {
      format: "harnessx.session",
      version: 1,
      sessionId: this.sessionId,
      messages: this.memory.entries.slice(),
      todos: this.parts.todos.current.slice(),
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
    this.parts.todos.current = session.todos;
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

import type { ExtensionHost } from "../extensions/host.js";
import type { HookEvent } from "../hooks/events.js";
import type { HookBus } from "../hooks/hook-bus.js";
import type { HookPayloads, RunAttributeValue } from "../hooks/payloads.js";
import type { ConversationMemory } from "../memory/conversation.js";
import type { MiddlewarePipeline } from "../middleware/pipeline.js";
import type { PermissionManager } from "../permissions/permission-manager.js";
import type { Policy } from "../permissions/policy.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { WriteQueue } from "../tools/write-queue.js";
import type { TodoItem } from "../tools/todos.js";
import type { ModelProvider } from "../types/provider.js";
import type { Registry } from "../util/registry.js";
import type { AgentInfo } from "./agent-info.js";
import type { AgentConfig } from "./config.js";
import type { RunEvent } from "./run-types.js";
import type { SystemPromptComposer } from "../prompt/system-prompt.js";
import type { SpanScopes } from "../spans/scopes.js";
import type { CommandRegistry } from "../commands/command-registry.js";
import type { MessageTypeRegistry } from "../messages/message-types.js";
import type { Pricer } from "../cost/pricer.js";
import type { RunLimit } from "../budgets/run-limit.js";
import type { DurableServices } from "../durable/durable-store.js";

/** Everything one run works with; built by the Agent. */
export interface EngineServices {
  info: AgentInfo;
  config: AgentConfig;
  provider: ModelProvider;
  tools: ToolRegistry;
  hooks: HookBus;
  middleware: MiddlewarePipeline;
  memory: ConversationMemory;
  permissions: PermissionManager;
  policies: Registry<Policy>;
  /** Checks made before each model call that can end the run (budgets). */
  runLimits: Registry<RunLimit>;
  prompt: SystemPromptComposer;
  /** Opens the spans of runs, model calls and tool calls. */
  spans: SpanScopes;
  extensions: ExtensionHost;
  commands: CommandRegistry;
  messageTypes: MessageTypeRegistry;
  todos: { current: TodoItem[] };
  /** Prices each model call from its usage. */
  pricer: Pricer;
  /** Serializes calls whose declared `writes` overlap. */
  writes: WriteQueue;
  /** Set when runs are durable (`AgentOptions.durable`): where and how they commit. */
  durable?: DurableServices;
  /** What extensions add to each run's span, merged; undefined when none did. */
  runAttributes(): Readonly<Record<string, RunAttributeValue>> | undefined;
}

/** Where a run's stream events go; a no-op for `run()`. */
export interface RunSink {
  readonly streaming: boolean;
  push(event: RunEvent): void;
}

export const NO_SINK: RunSink = { streaming: false, push() {} };

/** Emits a hook event, awaiting observers only when some are async. */
export function fire<E extends HookEvent>(services: EngineServices, event: E, data: HookPayloads[E]): Promise<void> | undefined {
  return services.hooks.emit(event, data);
}

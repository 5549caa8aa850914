import type { ExtensionHost } from "../extensions/host.js";
import { HookEvent } from "../hooks/events.js";
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

/**
 * The engine's hot events, whose payloads it builds for the event and never changes afterwards
 * (a value someone else made in them, a tool's raw result or span attributes, is snapshotted where
 * the event is fired): frozen in place rather than copied. The rest carry Errors, the run's result
 * or lists others keep, and are snapshotted.
 */
const FROZEN_IN_PLACE: ReadonlySet<HookEvent> = new Set<HookEvent>([
  HookEvent.LOOP_ITERATION_START,
  HookEvent.LOOP_ITERATION_END,
  HookEvent.LLM_REQUEST,
  HookEvent.LLM_RESPONSE,
  HookEvent.TOOL_CALL_START,
  HookEvent.TOOL_CALL_END,
  HookEvent.CONTEXT_CONDENSED,
  HookEvent.RECOVERY,
  HookEvent.REPETITION,
  HookEvent.COMMAND_INVOKED,
]);

/** Emits a hook event, awaiting observers only when some are async; observers get it read-only. */
export function fire<E extends HookEvent>(
  services: EngineServices,
  event: E,
  data: HookPayloads[E],
): Promise<void> | undefined {
  return FROZEN_IN_PLACE.has(event) ? services.hooks.emitFrozen(event, data) : services.hooks.emit(event, data);
}

import type { RunLimit } from "../budgets/run-limit.js";
import { CommandRegistry } from "../commands/command-registry.js";
import { Pricer } from "../cost/pricer.js";
import { checkDurable } from "../durable/check-durable.js";
import type { DurableOptions } from "../durable/durable-store.js";
import type { ExtensionSummary, PromptFragment } from "../extensions/contribution.js";
import { extensionEmitters } from "../extensions/extension-emitters.js";
import type { ExtensionServices, StatusProvider } from "../extensions/extension-services.js";
import type { ExtensionHost } from "../extensions/host.js";
import { HookEvent } from "../hooks/events.js";
import { HookBus } from "../hooks/hook-bus.js";
import type { RunAttributeValue } from "../hooks/payloads.js";
import { ConversationMemory } from "../memory/conversation.js";
import { MessageTypeRegistry } from "../messages/message-types.js";
import { MiddlewarePipeline } from "../middleware/pipeline.js";
import { PermissionManager } from "../permissions/permission-manager.js";
import type { Policy } from "../permissions/policy.js";
import { SystemPromptComposer } from "../prompt/system-prompt.js";
import { toModelProvider } from "../providers/fallback-provider.js";
import { Redactor } from "../redact/redactor.js";
import type { SessionState } from "../session/session-state.js";
import { SpanScopes } from "../spans/scopes.js";
import { TemplateRegistry } from "../templates/template-registry.js";
import { ToolRegistry } from "../tools/registry.js";
import { summarizeTodos, writeTodosTool, type TodoItem } from "../tools/todos.js";
import { summarizeTool } from "../tools/tool-summary.js";
import { WriteQueue } from "../tools/write-queue.js";
import type { ModelProvider } from "../types/provider.js";
import { newId } from "../util/ids.js";
import { Registry } from "../util/registry.js";
import { createAgentInfo, type AgentInfo } from "./agent-info.js";
import type { AgentOptions } from "./agent-options.js";
import { resolveConfig, type AgentConfig } from "./config.js";
import type { EngineServices } from "./services.js";

/**
 * What an agent is made of, built once per agent: the parts `Agent` shows, the registries its
 * extensions fill, and the state its runs share. What extensions get and what runs get are two
 * views of this one set.
 */
export interface AgentParts {
  readonly config: Readonly<AgentConfig>;
  readonly provider: ModelProvider;
  readonly sessionId: string;
  readonly redactor: Redactor;
  readonly info: AgentInfo;
  readonly tools: ToolRegistry;
  readonly hooks: HookBus;
  readonly middleware: MiddlewarePipeline;
  readonly memory: ConversationMemory;
  readonly permissions: PermissionManager;
  readonly commands: CommandRegistry;
  readonly templates: TemplateRegistry;
  readonly messageTypes: MessageTypeRegistry;
  readonly statuses: Registry<StatusProvider>;
  readonly runAttributes: Registry<Readonly<Record<string, RunAttributeValue>>>;
  readonly prompts: Registry<PromptFragment>;
  readonly spans: SpanScopes;
  readonly policies: Registry<Policy>;
  readonly runLimits: Registry<RunLimit>;
  readonly state: Map<string, unknown>;
  /** The task list the model keeps with `write_todos`. */
  readonly todos: { current: TodoItem[] };
}

/**
 * Builds an agent's parts from its options (`options.provider` checked by the caller), with
 * `AgentOptions.tools` and, when `todos` is on, `write_todos` registered. `extensions` reads the
 * installed extensions' summaries once they are installed.
 */
export function makeAgentParts(options: AgentOptions, extensions: () => ExtensionSummary[]): AgentParts {
  const provider = toModelProvider(options.provider);
  const config = resolveConfig({ ...options, provider });
  const sessionId = options.sessionId ?? newId("session");
  const tools = new ToolRegistry();
  const info = createAgentInfo({
    sessionId,
    provider: provider.name,
    config,
    toolNames: () => tools.names(),
    tools: () => tools.list().map(summarizeTool),
    extensions,
  });
  const hooks = new HookBus(info);
  const todos: { current: TodoItem[] } = { current: [] };
  const parts: AgentParts = {
    config,
    provider,
    sessionId,
    redactor: new Redactor(options.redact),
    info,
    tools,
    hooks,
    middleware: options.middleware ?? new MiddlewarePipeline(),
    memory: new ConversationMemory(),
    permissions: options.permissions ?? new PermissionManager(),
    commands: new CommandRegistry(),
    templates: new TemplateRegistry(),
    messageTypes: new MessageTypeRegistry(),
    statuses: new Registry<StatusProvider>(),
    runAttributes: new Registry<Readonly<Record<string, RunAttributeValue>>>(),
    prompts: new Registry<PromptFragment>(),
    spans: new SpanScopes(),
    policies: new Registry<Policy>(),
    runLimits: new Registry<RunLimit>(),
    state: new Map<string, unknown>(),
    todos,
  };
  for (const t of options.tools ?? []) tools.register(t);
  if (config.todos) {
    tools.register(
      writeTodosTool(async (list) => {
        todos.current = list;
        await hooks.emit(HookEvent.TODOS_UPDATED, { todos: list, ...summarizeTodos(list) });
      }),
    );
  }
  return parts;
}

/** What extensions get: the registries they fill, the agent's views, and the emitters of their events. */
export function extensionServices(parts: AgentParts, sessionSnapshot: () => SessionState): ExtensionServices {
  const {
    info,
    redactor,
    spans,
    tools,
    hooks,
    middleware,
    prompts,
    policies,
    runLimits,
    state,
    commands,
    templates,
    messageTypes,
    statuses,
    runAttributes,
  } = parts;
  return {
    info,
    redactor,
    spans,
    tools,
    hooks,
    middleware,
    prompts,
    policies,
    runLimits,
    state,
    commands,
    templates,
    messageTypes,
    statuses,
    runAttributes,
    sessionSnapshot,
    ...extensionEmitters(hooks, parts.memory),
  };
}

/** What runs work with: the parts they read, the installed extensions, the composed prompt, pricing, and durability when it is on. */
export function engineServices(
  parts: AgentParts,
  extensions: ExtensionHost,
  durable: DurableOptions | undefined,
): EngineServices {
  const {
    info,
    config,
    provider,
    tools,
    hooks,
    middleware,
    memory,
    permissions,
    policies,
    runLimits,
    spans,
    commands,
    messageTypes,
    todos,
    runAttributes,
  } = parts;
  const prompt = new SystemPromptComposer(
    config.system,
    parts.prompts,
    config.maxPromptFragmentChars,
    (owner, error) => {
      void hooks.emit(HookEvent.ERROR, { source: "prompt_provider", error, ...(owner ? { extension: owner } : {}) });
    },
  );
  return {
    info,
    config,
    provider,
    tools,
    hooks,
    middleware,
    memory,
    permissions,
    policies,
    runLimits,
    prompt,
    spans,
    extensions,
    commands,
    messageTypes,
    todos,
    writes: new WriteQueue(),
    pricer: new Pricer({
      prices: config.prices,
      ...(config.priceFile !== undefined ? { priceFile: config.priceFile } : {}),
    }),
    ...(durable ? { durable: { options: checkDurable(durable), redactor: parts.redactor } } : {}),
    runAttributes: () =>
      runAttributes.size === 0 ? undefined : Object.assign({}, ...runAttributes.list().map((e) => e.value)),
  };
}

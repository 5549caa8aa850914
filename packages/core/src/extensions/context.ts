import type { Agent, AgentConfig } from "../engine/agent.js";
import { ToolRegistrationError } from "../errors.js";
import type { HookEvent } from "../hooks/events.js";
import type { HookBus } from "../hooks/hook-bus.js";
import type { AnyHookContext, HookCallback } from "../hooks/payloads.js";
import type { MiddlewareLike } from "../middleware/middleware.js";
import type { MiddlewarePipeline } from "../middleware/pipeline.js";
import type { ConversationMemory } from "../memory/conversation.js";
import type { Policy } from "../permissions/policy.js";
import { registration, type Registration } from "../registration.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { InputSchema } from "../tools/schema.js";
import { tool as defineTool, type Tool, type ToolExecutionContext, type ToolSettings } from "../tools/tool.js";
import type { Registry } from "../util/registry.js";

/** A prompt provider returns text appended to the system prompt, or nothing. */
export type PromptProvider = () => string | undefined | null;

export interface RegisterToolOptions extends ToolSettings {
  name?: string;
  description?: string;
  inputSchema?: InputSchema;
  /** Needed to take over an existing tool name; closing restores the previous binding. */
  replace?: boolean;
}

export type ToolHandler = (input: Record<string, unknown>, context: ToolExecutionContext) => unknown;

/** What an extension registers through; every registration is owned and undone on close. */
export interface ExtensionContext {
  readonly extension: string;
  readonly config: Readonly<AgentConfig>;
  readonly tools: ToolRegistry;
  readonly hooks: HookBus;
  readonly middleware: MiddlewarePipeline;
  readonly memory: ConversationMemory;
  readonly sessionId: string;
  readonly agent: Agent;
  registerTool(toolOrHandler: Tool | ToolHandler, options?: RegisterToolOptions): Registration;
  addMiddleware(middleware: MiddlewareLike): Registration;
  onHook<E extends HookEvent>(event: E, callback: HookCallback<E>): Registration;
  /** Observes every event. */
  onAnyHook(callback: (ctx: AnyHookContext) => void | Promise<void>): Registration;
  registerPromptProvider(provider: PromptProvider): Registration;
  addPolicy(policy: Policy): Registration;
  /** Emits a `CUSTOM` event `{ extension, name, data }` to every observer. */
  emit(name: string, data: unknown): Promise<void>;
  /** Shared agent metadata; prefix keys with your extension's name. */
  getState<T = unknown>(key: string, fallback?: T): T | undefined;
  setState(key: string, value: unknown): void;
}

/** The agent's registries a context writes to. */
export interface ExtensionServices {
  agent: Agent;
  config: Readonly<AgentConfig>;
  tools: ToolRegistry;
  hooks: HookBus;
  middleware: MiddlewarePipeline;
  memory: ConversationMemory;
  promptProviders: Registry<PromptProvider>;
  policies: Registry<Policy>;
  state: Map<string, unknown>;
  emitCustom(extension: string, name: string, data: unknown): Promise<void>;
}

/** The context handed to one extension; it remembers every registration for rollback and close. */
export class OwnedExtensionContext implements ExtensionContext {
  private readonly owned: Registration[] = [];

  constructor(readonly extension: string, private readonly services: ExtensionServices) {}

  get config() { return this.services.config; }
  get tools() { return this.services.tools; }
  get hooks() { return this.services.hooks; }
  get middleware() { return this.services.middleware; }
  get memory() { return this.services.memory; }
  get sessionId() { return this.services.agent.sessionId; }
  get agent() { return this.services.agent; }

  private own(reg: Registration): Registration {
    this.owned.push(reg);
    return registration(() => reg.close());
  }

  registerTool(toolOrHandler: Tool | ToolHandler, options: RegisterToolOptions = {}): Registration {
    const { replace, ...overrides } = options;
    let t: Tool;
    if (typeof toolOrHandler === "function") {
      if (!overrides.name) throw new ToolRegistrationError(`extension "${this.extension}": registerTool with a handler needs options.name`);
      t = defineTool({ ...overrides, name: overrides.name, description: overrides.description ?? "", execute: toolOrHandler });
    } else if (Object.keys(overrides).length > 0) {
      const { execute, schema: _schema, definition: _definition, ...base } = toolOrHandler;
      t = defineTool({ ...base, inputSchema: toolOrHandler.schema.jsonSchema, ...overrides, name: overrides.name ?? toolOrHandler.name, execute });
    } else {
      t = toolOrHandler;
    }
    return this.own(this.services.tools.register(t, { replace, owner: this.extension }));
  }

  addMiddleware(middleware: MiddlewareLike): Registration {
    return this.own(this.services.middleware.add(middleware));
  }

  onHook<E extends HookEvent>(event: E, callback: HookCallback<E>): Registration {
    return this.own(this.services.hooks.on(event, callback));
  }

  onAnyHook(callback: (ctx: AnyHookContext) => void | Promise<void>): Registration {
    return this.own(this.services.hooks.onAny(callback));
  }

  registerPromptProvider(provider: PromptProvider): Registration {
    return this.own(this.services.promptProviders.add(provider, this.extension));
  }

  addPolicy(policy: Policy): Registration {
    if (!policy || typeof policy.decide !== "function" || !policy.id) {
      throw new TypeError(`extension "${this.extension}": a policy needs an id and a decide function`);
    }
    return this.own(this.services.policies.add(policy, this.extension));
  }

  emit(name: string, data: unknown): Promise<void> {
    return this.services.emitCustom(this.extension, name, data);
  }

  getState<T = unknown>(key: string, fallback?: T): T | undefined {
    return this.services.state.has(key) ? (this.services.state.get(key) as T) : fallback;
  }

  setState(key: string, value: unknown): void {
    this.services.state.set(key, value);
  }

  /** Removes every registration this extension made, newest first. */
  removeAll(): void {
    for (let i = this.owned.length - 1; i >= 0; i--) this.owned[i].close();
    this.owned.length = 0;
  }
}

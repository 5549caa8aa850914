import type { SpanIdSource } from "../spans/id-source.js";
import { ExtensionError, PrivilegeWideningError, ToolRegistrationError } from "../errors.js";
import { REPORTED_EVENTS, type HookEvent, type ReportedEvent } from "../hooks/events.js";
import type { AnyHookContext, HookCallback, HookPayloads, RunAttributeValue } from "../hooks/payloads.js";
import { middlewareName, type MiddlewareLike } from "../middleware/middleware.js";
import type { Policy } from "../permissions/policy.js";
import { MCP_EXTENSION, MCP_TOOL_PREFIX } from "../permissions/permission-manager.js";
import type { RunLimit } from "../budgets/run-limit.js";
import { registration, type Registration } from "../registration.js";
import { tool as defineTool, type Tool } from "../tools/tool.js";
import type { ArtifactRef } from "../types/content.js";
import type { CommandSpec } from "../commands/command-registry.js";
import type { TemplateSpec } from "../templates/template-registry.js";
import type { CustomMessageData, CustomMessageType } from "../messages/custom-messages.js";
import type { MessageTypeSpec } from "../messages/message-types.js";
import { appendCustomEntry } from "../messages/append-entry.js";
import type { ExtensionServices, StatusProvider } from "./extension-services.js";
import type { SessionState } from "../session/session-state.js";
import type { ExtensionContribution, PromptFragment } from "./contribution.js";
import type { ContributionLedger } from "./ledger.js";
import { validateContribution } from "./validate-contribution.js";
import type {
  ExtensionContext,
  PromptProvider,
  RegisterToolOptions,
  ReportedErrorSource,
  ToolHandler,
} from "./extension-context.js";

const REPORTED_SOURCES = new Set<ReportedErrorSource>(["extension", "exporter", "recorder"]);

/** The host's side of a context: apply a validated value, or undo everything and close it. */
export interface ContextControl {
  context: ExtensionContext;
  apply(value: ExtensionContribution): void;
  removeAll(): void;
}

/**
 * Opens the context of one extension. The context is a frozen object of closures: the
 * services and the ledger are not reachable from it, and it refuses work once closed.
 */
export function openContext(
  ledger: ContributionLedger,
  services: ExtensionServices,
  maxFragmentChars: number,
): ContextControl {
  const name = ledger.extension;
  const owned: Registration[] = [];
  let closed = false;
  let providers = 0;

  const guard = () => {
    if (closed)
      throw new ExtensionError(name, "this extension's context is closed (the agent closed or its install failed)");
  };
  const own = (reg: Registration, forget: () => void): Registration => {
    const both = registration(() => {
      reg.close();
      forget();
    });
    owned.push(both);
    return both;
  };
  /** One member checked by the same rules as a whole contribution. */
  const checked = (members: Parameters<typeof validateContribution>[0]) =>
    validateContribution(
      { extension: name, ...(members as object) },
      { extension: name, maxFragmentChars, toolOwner: () => undefined },
    );

  const bindTool = (tool: Tool, replace: boolean): Registration => {
    if (tool.name.startsWith(MCP_TOOL_PREFIX) && name !== MCP_EXTENSION) {
      throw new PrivilegeWideningError(
        name,
        `tool:${tool.name}`,
        `names starting with "${MCP_TOOL_PREFIX}" belong to the MCP extension's servers (the user's "${MCP_TOOL_PREFIX}<server>__*" rules grant them); choose another name`,
      );
    }
    const holder = services.tools.has(tool.name) ? (services.tools.ownerOf(tool.name) ?? null) : undefined;
    if (holder !== undefined && holder !== name) {
      const who = holder === null ? "the application" : `extension "${holder}"`;
      if (replace)
        throw new PrivilegeWideningError(
          name,
          `tool:${tool.name}`,
          `belongs to ${who}; an extension cannot take over another owner's tool (the user's permission rules name that tool)`,
        );
      throw new ToolRegistrationError(`extension "${name}": tool "${tool.name}" is already registered by ${who}`);
    }
    const reg = services.tools.register(tool, { replace, owner: name });
    return own(reg, ledger.add("tools", tool as ExtensionContribution["tools"][number]));
  };
  const addFragment = (fragment: ExtensionContribution["prompts"][number]): Registration => {
    if (ledger.hasId("prompts", fragment.id))
      throw new ExtensionError(name, `prompt fragment "${fragment.id}" is already registered`);
    return own(services.prompts.add(fragment, name), ledger.add("prompts", fragment));
  };
  const addPolicy = (policy: ExtensionContribution["policies"][number]): Registration => {
    if (ledger.hasId("policies", policy.id))
      throw new ExtensionError(name, `policy "${policy.id}" is already registered`);
    return own(services.policies.add(policy, name), ledger.add("policies", policy));
  };

  const context: ExtensionContext = Object.freeze({
    extension: name,
    info: services.info,
    redactor: services.redactor,
    registerTool(toolOrHandler: Tool | ToolHandler, options: RegisterToolOptions = {}): Registration {
      guard();
      const { replace, ...overrides } = options;
      let built: Tool;
      if (typeof toolOrHandler === "function") {
        if (!overrides.name)
          throw new ToolRegistrationError(`extension "${name}": registerTool with a handler needs options.name`);
        built = defineTool({
          ...overrides,
          name: overrides.name,
          description: overrides.description ?? "",
          execute: toolOrHandler,
        });
      } else if (Object.keys(overrides).length > 0) {
        const { execute, schema: _schema, definition: _definition, ...base } = toolOrHandler;
        built = defineTool({
          ...base,
          inputSchema: toolOrHandler.schema.jsonSchema,
          ...overrides,
          name: overrides.name ?? toolOrHandler.name,
          execute,
        });
      } else built = toolOrHandler;
      return bindTool(checked({ tools: [built] }).tools[0], replace === true);
    },
    addMiddleware(middleware: MiddlewareLike): Registration {
      guard();
      return own(
        services.middleware.add(middleware, name),
        ledger.add("middleware", Object.freeze({ name: middlewareName(middleware), extension: name })),
      );
    },
    onHook<E extends HookEvent>(event: E, callback: HookCallback<E>): Registration {
      guard();
      return own(
        services.hooks.on(event, callback, name),
        ledger.add("observers", Object.freeze({ event, extension: name })),
      );
    },
    onAnyHook(callback: (ctx: AnyHookContext) => void | Promise<void>): Registration {
      guard();
      return own(
        services.hooks.onAny(callback, name),
        ledger.add("observers", Object.freeze({ event: "*" as const, extension: name })),
      );
    },
    addPromptFragment(fragment: PromptFragment): Registration {
      guard();
      return addFragment(checked({ prompts: [fragment] }).prompts[0]);
    },
    registerPromptProvider(provider: PromptProvider): Registration {
      guard();
      return addFragment(checked({ prompts: [{ id: `provider-${++providers}`, text: provider }] }).prompts[0]);
    },
    addPolicy(policy: Policy): Registration {
      guard();
      return addPolicy(checked({ policies: [policy] }).policies[0]);
    },
    addRunLimit(limit: RunLimit): Registration {
      guard();
      if (typeof limit?.check !== "function")
        throw new ExtensionError(name, "addRunLimit needs an object with a check(progress) function");
      return own(services.runLimits.add(limit, name), () => {});
    },
    useSpanIds(source: SpanIdSource): Registration {
      guard();
      let remove: () => void;
      try {
        remove = services.spans.use(source);
      } catch (err) {
        throw new ExtensionError(name, (err as Error).message);
      }
      const reg = registration(remove);
      owned.push(reg);
      return reg;
    },
    emit(eventName: string, data: unknown, options: { artifacts?: readonly ArtifactRef[] } = {}): Promise<void> {
      return services.emitCustom(name, eventName, data, options.artifacts);
    },
    report<E extends ReportedEvent>(event: E, data: HookPayloads[E]): Promise<void> {
      guard();
      if (!(REPORTED_EVENTS as readonly string[]).includes(event)) {
        throw new ExtensionError(
          name,
          `cannot emit "${String(event)}": an extension emits only ${REPORTED_EVENTS.join(", ")} (and custom events with emit())`,
        );
      }
      // Who emitted it travels with it, so no reader takes an extension's report for the engine's.
      return services.emitReported(event, { ...(data as object), extension: name } as HookPayloads[E]);
    },
    reportError(error: Error, details: { source?: ReportedErrorSource; dropped?: number } = {}): Promise<void> {
      const source = REPORTED_SOURCES.has(details.source as ReportedErrorSource)
        ? (details.source as ReportedErrorSource)
        : "extension";
      return services.emitError(source, error, name, details.dropped);
    },
    registerCommand(commandName: string, spec: CommandSpec<ExtensionContext> & { source?: string }): Registration {
      guard();
      if (typeof spec?.handler !== "function")
        throw new ExtensionError(name, `command "/${commandName}" needs a handler(args, ctx) function`);
      const description = typeof spec.description === "string" ? spec.description : "";
      const info = {
        name: commandName,
        description,
        extension: name,
        ...(typeof spec.source === "string" ? { source: spec.source } : {}),
      };
      const reg = services.commands.register(info, async (args) => spec.handler(args, context));
      return own(reg, ledger.add("commands", Object.freeze({ name: commandName, description, extension: name })));
    },
    registerTemplate(spec: TemplateSpec): Registration {
      guard();
      const { registration: reg, info } = services.templates.register(spec, name);
      return own(
        reg,
        ledger.add("templates", Object.freeze({ name: info.name, parameters: info.parameters, extension: name })),
      );
    },
    registerMessageType<K extends CustomMessageType>(type: K, spec: MessageTypeSpec<K>): Registration {
      guard();
      const reg = services.messageTypes.register(type, spec as MessageTypeSpec<string>, name);
      return own(
        reg,
        ledger.add(
          "messageTypes",
          Object.freeze({ type, extension: name, toModel: typeof spec.toModel === "function" }),
        ),
      );
    },
    appendMessage<K extends CustomMessageType>(type: K, data: CustomMessageData<K>): Promise<void> {
      guard();
      return appendCustomEntry(services, name, type, data);
    },
    addRunAttributes(attributes: Readonly<Record<string, RunAttributeValue>>): Registration {
      guard();
      return own(services.runAttributes.add(Object.freeze({ ...attributes }), name), () => {});
    },
    registerStatus(provider: StatusProvider): Registration {
      guard();
      if (typeof provider !== "function")
        throw new ExtensionError(name, "registerStatus needs a function returning a line of text");
      return own(services.statuses.add(provider, name), () => {});
    },
    sessionSnapshot(): SessionState {
      guard();
      return services.sessionSnapshot();
    },
    getState<T = unknown>(key: string, fallback?: T): T | undefined {
      return services.state.has(key) ? (services.state.get(key) as T) : fallback;
    },
    setState(key: string, value: unknown): void {
      services.state.set(key, value);
    },
  });

  return {
    context,
    apply(value) {
      for (const tool of value.tools) bindTool(tool, false);
      for (const fragment of value.prompts) addFragment(fragment);
      for (const policy of value.policies) addPolicy(policy);
      for (const hook of value.lifecycle) owned.push(registration(ledger.add("lifecycle", hook)));
    },
    removeAll() {
      closed = true;
      for (let i = owned.length - 1; i >= 0; i--) owned[i].close();
      owned.length = 0;
    },
  };
}

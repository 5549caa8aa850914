import type { HookEvent } from "../hooks/events.js";
import type { Policy } from "../permissions/policy.js";
import type { Tool } from "../tools/tool.js";
import { deepFreeze } from "../util/deep-freeze.js";
import type { TrustLevel } from "./trust-level.js";

/**
 * Where a prompt fragment goes. `operator` is the agent's own `system` text and no
 * extension may claim it; `guidance` (the default) is standing instruction from an
 * extension (a tool guide); `context` is situational state (a counter, a plan) placed last.
 */
export type PromptTier = "operator" | "guidance" | "context";

/** Text an extension adds to the system prompt, in a labelled section below the operator's text. */
export interface PromptFragment {
  /** Names the fragment in the prompt's section label and in errors; unique within its extension. */
  readonly id: string;
  /** The text, or a function asked at each model call (nothing or "" leaves the fragment out). */
  readonly text: string | (() => string | undefined | null);
  /** Default `guidance`. */
  readonly tier?: PromptTier;
  /** Lower comes first within a tier; ties keep install order. Default 100. */
  readonly order?: number;
  /**
   * Include the fragment only in requests that offer this tool (after middleware): a tool's
   * guide or catalog is shown while the tool is active, and never describes a tool the model cannot call.
   */
  readonly requiresTool?: string;
  /** Set by `contribution()` and the host; an author never needs to. */
  readonly extension?: string;
}

/** A veto over tool calls; its `allow` only means "no objection" (deny-wins). */
export interface PolicyContribution extends Policy {
  /** The extension that declared it; set by `contribution()` and the host. */
  readonly extension?: string;
}

/** Work run when the agent opens its composition (before its first turn) or unwinds it (`close()`). */
export interface LifecycleContribution {
  /** Names the hook in errors and in the extension's summary (`id@phase`). */
  readonly id: string;
  /**
   * `install`: runs once at the start of the first run, in install order; a failure fails that run and it runs again at the next.
   * `close`: runs on `close()`, in reverse order; failures are thrown together.
   */
  readonly phase: "install" | "close";
  /** The work. */
  run(): void | Promise<void>;
  /** The extension that declared it; set by `contribution()` and the host. */
  readonly extension?: string;
}

/** What `install` registered that is not a declared kind: recorded, never declared. */
export interface MiddlewareRecord {
  /** The middleware's `name`, else its class name. */
  readonly name: string;
  /** The extension that added it. */
  readonly extension: string;
}

/** A slash command an extension registered (`ctx.registerCommand`). */
export interface CommandRecord {
  /** The command's name, without the `/`. */
  readonly name: string;
  /** What the command does; `""` when none was given. */
  readonly description: string;
  /** The extension that registered it. */
  readonly extension: string;
}

/** A custom message type an extension registered (`ctx.registerMessageType`). */
export interface MessageTypeRecord {
  /** The custom entry type's name. */
  readonly type: string;
  /** The extension that registered it. */
  readonly extension: string;
  /** Whether its entries can reach the model. */
  readonly toModel: boolean;
}

/** A prompt template an extension registered (`ctx.registerTemplate`). */
export interface TemplateRecord {
  /** The template's name. */
  readonly name: string;
  /** The `{{parameter}}` names its body uses. */
  readonly parameters: readonly string[];
  /** The extension that registered it. */
  readonly extension: string;
}

/** An event observer an extension registered (`ctx.onHook` or `ctx.onAnyHook`). */
export interface ObserverRecord {
  /** The observed event, or `*` for every event (`onAnyHook`). */
  readonly event: HookEvent | "*";
  /** The extension that registered it. */
  readonly extension: string;
}

type Stamped<T> = T & { readonly extension: string };

/**
 * Everything one extension offers, as one deeply frozen value: the four declared kinds
 * (tools, prompt fragments, policies, lifecycle hooks), each member stamped with the
 * extension, plus what `install` registered (middleware, observers, commands, templates, message types). The host validates
 * a declared value whole and refuses it as a unit.
 */
export interface ExtensionContribution {
  /** The extension's name. */
  readonly extension: string;
  /** Declared tools. */
  readonly tools: readonly Stamped<Tool>[];
  /** Declared prompt fragments. */
  readonly prompts: readonly Stamped<PromptFragment>[];
  /** Declared policies. */
  readonly policies: readonly Stamped<PolicyContribution>[];
  /** Declared install and close hooks. */
  readonly lifecycle: readonly Stamped<LifecycleContribution>[];
  /** Middleware `install` added; empty in a value from `contribution()`. */
  readonly middleware: readonly MiddlewareRecord[];
  /** Event observers `install` registered; empty in a value from `contribution()`. */
  readonly observers: readonly ObserverRecord[];
  /** Slash commands `install` registered; empty in a value from `contribution()`. */
  readonly commands: readonly CommandRecord[];
  /** Prompt templates `install` registered; empty in a value from `contribution()`. */
  readonly templates: readonly TemplateRecord[];
  /** Custom message types `install` registered; empty in a value from `contribution()`. */
  readonly messageTypes: readonly MessageTypeRecord[];
  /** Set by the host on installed values: the trust level the extension was loaded at. */
  readonly level?: TrustLevel;
  /** Set by the host on installed values: the file a discovered extension came from. */
  readonly source?: string;
  /** Set by the host on installed values: the extension's declared version. */
  readonly version?: string;
}

/** The declared kinds `contribution()` accepts; there is no fifth. */
export interface ContributionMembers {
  /** Tools to offer the model. Default none. */
  tools?: readonly Tool[];
  /** Sections to add to the system prompt. Default none. */
  prompts?: readonly PromptFragment[];
  /** Vetoes over tool calls. Default none. */
  policies?: readonly PolicyContribution[];
  /** Work to run before the first turn or on `close()`. Default none. */
  lifecycle?: readonly LifecycleContribution[];
}

export const DECLARED_KINDS = ["tools", "prompts", "policies", "lifecycle"] as const;

/**
 * Builds an extension's contribution: copies every member, stamps it with the extension's
 * name and freezes the whole value. A member already stamped with another extension is kept
 * as it is so that the host refuses it (`PrivilegeWideningError`). Tools keep the callable
 * they were declared with; nothing is looked up by name later.
 */
export function contribution(
  extension: string | { readonly name: string },
  members: ContributionMembers = {},
): ExtensionContribution {
  const name = typeof extension === "string" ? extension : extension?.name;
  const list = <T extends object>(items: readonly T[] | undefined): Stamped<T>[] =>
    Array.isArray(items) ? items.map((member) => stamp(member, name)) : ((items ?? []) as Stamped<T>[]);
  const value: ExtensionContribution & Record<string, unknown> = {
    ...members,
    extension: name,
    tools: list(members.tools),
    prompts: list(members.prompts),
    policies: list(members.policies),
    lifecycle: list(members.lifecycle),
    middleware: [],
    observers: [],
    commands: [],
    templates: [],
    messageTypes: [],
  };
  return deepFreeze(value);
}

/** Callables a member may carry, bound to it so a class instance keeps working once copied. */
const CALLABLES = ["execute", "retryIfResult", "writes", "decide", "run", "text"] as const;

/** A copy of a member stamped with its extension (unless it names one already), its callables captured. */
export function stamp<T extends object>(member: T, extension: string): Stamped<T> {
  if (member === null || typeof member !== "object") return member as Stamped<T>;
  const copy: Record<string, unknown> = { ...(member as Record<string, unknown>) };
  for (const key of CALLABLES) {
    const fn = (member as Record<string, unknown>)[key];
    if (typeof fn === "function") copy[key] = fn.bind(member);
  }
  const owner = (member as { extension?: unknown }).extension;
  copy.extension = owner === undefined ? extension : owner;
  return copy as Stamped<T>;
}

/** An installed extension in plain data: its trust level, source file and the ids of what it contributed. */
export interface ExtensionSummary {
  /** The extension's name. */
  name: string;
  /** The extension's declared version, when it declares one. */
  version?: string;
  /** The trust level it was loaded at; `builtin` for extensions passed in code. */
  level: TrustLevel;
  /** The file a discovered extension came from; absent for extensions passed in code. */
  source?: string;
  /** Names of its tools. */
  tools: string[];
  /** Ids of its prompt fragments. */
  prompts: string[];
  /** Ids of its policies. */
  policies: string[];
  /** Its lifecycle hooks, as `id@phase`. */
  lifecycle: string[];
  /** Names of its middleware. */
  middleware: string[];
  /** The events it observes (`*`: every event), one per observer. */
  observers: string[];
  /** Names of its slash commands. */
  commands: string[];
  /** Names of its prompt templates. */
  templates: string[];
  /** Names of its custom message types. */
  messageTypes: string[];
}

export function summarize(value: ExtensionContribution): ExtensionSummary {
  return {
    name: value.extension,
    ...(value.version ? { version: value.version } : {}),
    level: value.level ?? "builtin",
    ...(value.source ? { source: value.source } : {}),
    tools: value.tools.map((t) => t.name),
    prompts: value.prompts.map((p) => p.id),
    policies: value.policies.map((p) => p.id),
    lifecycle: value.lifecycle.map((l) => `${l.id}@${l.phase}`),
    middleware: value.middleware.map((m) => m.name),
    observers: value.observers.map((o) => o.event),
    commands: value.commands.map((c) => c.name),
    templates: value.templates.map((t) => t.name),
    messageTypes: value.messageTypes.map((m) => m.type),
  };
}

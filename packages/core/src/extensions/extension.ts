import type { RunResult } from "../engine/run-types.js";
import type { Message } from "../types/content.js";
import type { JsonValue } from "../types/json.js";
import type { ExtensionContext } from "./extension-context.js";
import type { ExtensionContribution } from "./contribution.js";
import type { TrustLevel } from "./trust-level.js";

export type { JsonValue } from "../types/json.js";

/** What an extension may implement besides its name: registration, declaration and lifecycle. */
export interface ExtensionHooks {
  /**
   * Registers middleware, observers and anything else through the context. Synchronous;
   * acquire async resources in `onTurnStart` or a lifecycle contribution. What it registers
   * is recorded in the extension's contribution.
   */
  install?(ctx: ExtensionContext): void;
  /**
   * Declares tools, prompt fragments, policies and lifecycle hooks as one value (built with
   * `contribution()`). Synchronous; the host validates the whole value before applying any of it.
   */
  contribute?(): ExtensionContribution;
  /**
   * Once per agent, before its first turn (after install-phase lifecycle hooks), in install
   * order. Observational: an error is reported as an `ERROR` event and the session goes on.
   */
  onSessionStart?(ctx: ExtensionContext): void | Promise<void>;
  /**
   * At the start of each run, once the user's message is in the history: may return the messages
   * the run's first request sends (context added, something removed), which become the history.
   * Runs in install order, each seeing the previous one's result. A rewriting hook: an error, or a
   * change to provider-owned blocks, fails the run.
   */
  beforeAgentStart?(
    ctx: ExtensionContext,
    event: { input: string; messages: readonly Message[] },
    // biome-ignore lint/suspicious/noConfusingVoidType: a callback with a block body and no return infers void; the union lets it type-check
  ): readonly Message[] | undefined | void | Promise<readonly Message[] | undefined | void>;
  /** On `agent.close()`, before any extension closes, in reverse install order. Observational, like `onSessionStart`. */
  onSessionEnd?(ctx: ExtensionContext): void | Promise<void>;
  /** Start of a user turn, in install order. Errors fail the turn. */
  onTurnStart?(ctx: ExtensionContext, userMessage: string): void | Promise<void>;
  /** Successful finish of a turn, in install order. Errors fail the run. */
  onTurnSuccess?(ctx: ExtensionContext, finalText: string): void | Promise<void>;
  /** Completion, failure or cancellation (not pauses or approval waits), in reverse order; best-effort. */
  onTurnEnd?(ctx: ExtensionContext, result: RunResult): void | Promise<void>;
  /** JSON-compatible state stored under the extension's name; may run many times. */
  onSaveSession?(ctx: ExtensionContext): JsonValue | undefined;
  /** Restores saved state; validate its shape and throw on anything wrong. */
  onLoadSession?(ctx: ExtensionContext, state: JsonValue): void | Promise<void>;
  /** Releases what the extension owns; on `agent.close()`, in reverse order. */
  close?(): void | Promise<void>;
}

/**
 * A reusable feature: tools, middleware, hooks, prompt fragments and policies, declared in
 * `contribute()` and/or registered in `install(ctx)`, with a lifecycle and saved state.
 * Use one instance per agent.
 */
export interface Extension extends ExtensionHooks {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: merging gives the class every optional hook of ExtensionHooks without declaring them one by one
export abstract class Extension {
  /** Unique and non-empty among an agent's extensions. */
  abstract readonly name: string;
  /** Lower installs first; ties keep the order given. Default 100. */
  readonly priority: number = 100;
  /** Version stored with saved state; a different version is refused at load. Default 1. */
  readonly stateVersion: number = 1;
  /** The extension's own version (e.g. its package's), recorded with every run it takes part in. */
  readonly version?: string;
}

/**
 * An extension as one function: it registers through the context it is given and may
 * return a contribution. Named after its file when discovered, else by `defineExtension`.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a callback with a block body and no return infers void; the union lets it type-check
export type ExtensionFactory = (hx: ExtensionContext) => void | ExtensionContribution;

/** An extension as a plain object, for `defineExtension`: its name, settings and hooks. */
export interface ExtensionDefinition extends ExtensionHooks {
  /** Unique and non-empty among an agent's extensions. */
  name: string;
  /** Lower installs first; ties keep the order given. Default 100. */
  priority?: number;
  /** Version stored with saved state; a different version is refused at load. Default 1. */
  stateVersion?: number;
  /** The extension's own version, recorded with every run it takes part in; absent: none recorded. */
  version?: string;
}

/** What the host needs of an extension: the class or anything shaped like it. */
export type ExtensionLike = Pick<Extension, "name"> &
  Partial<Pick<Extension, "priority" | "stateVersion" | "version">> &
  ExtensionHooks;

/** An extension with where it came from, as `discover()` returns it. */
export interface LoadedExtension {
  /** The extension itself. */
  readonly extension: ExtensionLike;
  /** How far it is trusted, by where it was found. */
  readonly level: TrustLevel;
  /** The file it was loaded from; absent for built-ins passed in code. */
  readonly source?: string;
}

/** An extension class with a constructor that takes no arguments. */
export type ExtensionClass = new () => ExtensionLike;

/** Anything `new Agent({ extensions })` accepts. */
export type ExtensionEntry = ExtensionLike | ExtensionFactory | ExtensionClass | LoadedExtension;

/** An extension from a plain object, or from a name and a factory function. */
export function defineExtension(definition: ExtensionDefinition): Extension;
export function defineExtension(name: string, factory: ExtensionFactory): Extension;
export function defineExtension(definitionOrName: ExtensionDefinition | string, factory?: ExtensionFactory): Extension {
  const definition: ExtensionDefinition =
    typeof definitionOrName === "string"
      ? { name: definitionOrName, install: factory as ExtensionHooks["install"] }
      : definitionOrName;
  const { name, priority, stateVersion, version, ...hooks } = definition ?? ({} as ExtensionDefinition);
  class Defined extends Extension {
    readonly name = name;
    override readonly priority = priority ?? 100;
    override readonly stateVersion = stateVersion ?? 1;
    override readonly version = version;
  }
  const ext = new Defined();
  for (const [key, fn] of Object.entries(hooks)) {
    if (typeof fn === "function") Object.defineProperty(ext, key, { value: fn.bind(definition), enumerable: false });
  }
  return ext;
}

/** True for a class (an extension constructor), false for a plain factory function. */
// biome-ignore lint/complexity/noBannedTypes: `typeof entry === "function"` narrows to Function, and any function may be a class
function isClass(fn: Function): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn)) || fn.prototype instanceof Extension;
}

/**
 * Any accepted form of an extension (an instance, a definition, a class, a factory named after
 * `fallbackName` or its function name) as one extension: what a loader of extension modules needs.
 */
export function toExtension(entry: unknown, fallbackName?: string): ExtensionLike {
  return toLoaded(entry, fallbackName).extension;
}

/**
 * Turns any accepted form into an extension with its origin: an instance or definition as it
 * is, a class instantiated, a factory named after `fallbackName` or its function name.
 */
export function toLoaded(
  entry: unknown,
  fallbackName?: string,
): { extension: ExtensionLike; level: TrustLevel; source?: string } {
  if (
    entry &&
    typeof entry === "object" &&
    "level" in entry &&
    "extension" in entry &&
    typeof (entry as LoadedExtension).extension === "object"
  ) {
    const loaded = entry as LoadedExtension;
    return { extension: loaded.extension, level: loaded.level, ...(loaded.source ? { source: loaded.source } : {}) };
  }
  if (typeof entry === "function") {
    if (isClass(entry)) return { extension: new (entry as new () => ExtensionLike)(), level: "builtin" };
    const name = fallbackName ?? entry.name;
    return { extension: defineExtension(name, entry as ExtensionFactory), level: "builtin" };
  }
  return { extension: entry as ExtensionLike, level: "builtin" };
}

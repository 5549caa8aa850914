import type { RunResult } from "../engine/run-types.js";
import type { ExtensionContext } from "./context.js";

/** JSON-compatible data: what `onSaveSession` may return. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The lifecycle callbacks an extension may implement. */
export interface ExtensionHooks {
  /** Start of a user turn, in install order. Errors fail the turn. */
  onTurnStart?(ctx: ExtensionContext, userMessage: string): void | Promise<void>;
  /** Successful finish of a turn, in install order. Errors fail the run. */
  onTurnEnd?(ctx: ExtensionContext, finalText: string): void | Promise<void>;
  /** Completion, failure or cancellation (not pauses or approval waits), in reverse order; best-effort. */
  onTurnComplete?(ctx: ExtensionContext, result: RunResult): void | Promise<void>;
  /** JSON-compatible state stored under the extension's name; may run many times. */
  onSaveSession?(ctx: ExtensionContext): JsonValue | undefined;
  /** Restores saved state; validate its shape and throw on anything wrong. */
  onLoadSession?(ctx: ExtensionContext, state: JsonValue): void | Promise<void>;
  /** Releases what the extension owns; on `agent.close()`, in reverse order. */
  teardown?(): void | Promise<void>;
}

/**
 * A reusable feature: tools, middleware, hooks, prompt context and policies
 * registered together in `install`, with a lifecycle and saved state.
 * Use one instance per agent.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Extension extends ExtensionHooks {}
export abstract class Extension {
  /** Unique and non-empty among an agent's extensions. */
  abstract readonly name: string;
  /** Lower installs first; ties keep the order given. Default 100. */
  readonly priority: number = 100;
  /** Version stored with saved state; a different version is refused at load. Default 1. */
  readonly stateVersion: number = 1;
  /** Registers capabilities. Synchronous: acquire async resources in `onTurnStart`. */
  abstract install(ctx: ExtensionContext): void;
}

export interface ExtensionDefinition extends ExtensionHooks {
  name: string;
  priority?: number;
  stateVersion?: number;
  install(ctx: ExtensionContext): void;
}

/** An extension from a plain object. */
export function defineExtension(definition: ExtensionDefinition): Extension {
  const { name, priority, stateVersion, install, ...hooks } = definition;
  class Defined extends Extension {
    readonly name = name;
    override readonly priority = priority ?? 100;
    override readonly stateVersion = stateVersion ?? 1;
    install(ctx: ExtensionContext): void {
      install.call(definition, ctx);
    }
  }
  const ext = new Defined();
  for (const [key, fn] of Object.entries(hooks)) {
    if (typeof fn === "function") Object.defineProperty(ext, key, { value: fn.bind(definition), enumerable: false });
  }
  return ext;
}

/** What the host needs of an extension: the class or anything shaped like it. */
export type ExtensionLike = Pick<Extension, "name" | "install"> & Partial<Pick<Extension, "priority" | "stateVersion">> & ExtensionHooks;

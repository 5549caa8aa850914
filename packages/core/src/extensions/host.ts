import type { RunResult } from "../engine/run-types.js";
import { ExtensionConflictError, ExtensionError, SessionStateError, toError } from "../errors.js";
import { assertJsonCompatible } from "../session/json-check.js";
import type { ExtensionLike, JsonValue } from "./extension.js";
import { OwnedExtensionContext, type ExtensionServices } from "./context.js";

/** Which agent each extension instance is installed in: one instance serves one agent. */
const claims = new WeakMap<object, object>();

export interface SavedExtensionState {
  version: number;
  state: JsonValue;
}

interface Installed {
  extension: ExtensionLike;
  ctx: OwnedExtensionContext;
}

/** Installs extensions and runs their lifecycle in the contract's order. */
export class ExtensionHost {
  private readonly installed: Installed[] = [];

  constructor(
    extensions: readonly ExtensionLike[],
    private readonly services: ExtensionServices,
    private readonly reportError: (extension: string, error: Error) => Promise<void> | undefined,
  ) {
    validateNames(extensions);
    for (const extension of extensions) {
      const owner = claims.get(extension);
      if (owner && owner !== services.agent) {
        throw new ExtensionError(extension.name, "this instance is already installed in another agent; create a new instance for each agent");
      }
    }
    const ordered = extensions
      .map((extension, index) => ({ extension, index }))
      .sort((a, b) => (a.extension.priority ?? 100) - (b.extension.priority ?? 100) || a.index - b.index)
      .map((e) => e.extension);
    for (const extension of ordered) {
      const ctx = new OwnedExtensionContext(extension.name, services);
      claims.set(extension, services.agent);
      try {
        const outcome: unknown = extension.install(ctx);
        if (outcome && typeof (outcome as Promise<void>).then === "function") {
          throw new Error("install must be synchronous; acquire async resources in onTurnStart");
        }
      } catch (err) {
        ctx.removeAll();
        claims.delete(extension);
        this.rollbackAll();
        const error = toError(err);
        throw new ExtensionError(extension.name, `install failed: ${error.message}`, { cause: error });
      }
      this.installed.push({ extension, ctx });
    }
  }

  /** Names in install order. */
  names(): string[] {
    return this.installed.map((i) => i.extension.name);
  }

  private rollbackAll(): void {
    for (let i = this.installed.length - 1; i >= 0; i--) {
      this.installed[i].ctx.removeAll();
      claims.delete(this.installed[i].extension);
    }
    this.installed.length = 0;
  }

  get hasTurnCallbacks(): boolean {
    return this.installed.some((i) => i.extension.onTurnStart || i.extension.onTurnEnd || i.extension.onTurnComplete);
  }

  async turnStart(userMessage: string): Promise<void> {
    for (const { extension, ctx } of this.installed) {
      if (!extension.onTurnStart) continue;
      try {
        await extension.onTurnStart(ctx, userMessage);
      } catch (err) {
        throw new ExtensionError(extension.name, `onTurnStart failed: ${toError(err).message}`, { cause: err });
      }
    }
  }

  async turnEnd(finalText: string): Promise<void> {
    for (const { extension, ctx } of this.installed) {
      if (!extension.onTurnEnd) continue;
      try {
        await extension.onTurnEnd(ctx, finalText);
      } catch (err) {
        throw new ExtensionError(extension.name, `onTurnEnd failed: ${toError(err).message}`, { cause: err });
      }
    }
  }

  /** Best-effort: failures are reported as ERROR events and never change the result. */
  async turnComplete(result: RunResult): Promise<void> {
    for (let i = this.installed.length - 1; i >= 0; i--) {
      const { extension, ctx } = this.installed[i];
      if (!extension.onTurnComplete) continue;
      try {
        await extension.onTurnComplete(ctx, result);
      } catch (err) {
        await this.reportError(extension.name, toError(err));
      }
    }
  }

  saveStates(): Record<string, SavedExtensionState> {
    const out: Record<string, SavedExtensionState> = {};
    for (const { extension, ctx } of this.installed) {
      if (!extension.onSaveSession) continue;
      const state = extension.onSaveSession(ctx);
      if (state === undefined) continue;
      assertJsonCompatible(state, `$.extensions.${extension.name}.state`);
      out[extension.name] = { version: extension.stateVersion ?? 1, state };
    }
    return out;
  }

  async loadStates(states: Record<string, SavedExtensionState>): Promise<void> {
    for (const { extension, ctx } of this.installed) {
      const saved = states[extension.name];
      if (saved === undefined || !extension.onLoadSession) continue;
      const expected = extension.stateVersion ?? 1;
      if (typeof saved !== "object" || saved === null || !("state" in saved) || typeof saved.version !== "number") {
        throw new SessionStateError(`extension "${extension.name}": saved state must be { version: number, state }`, `$.extensions.${extension.name}`);
      }
      if (saved.version !== expected) {
        throw new SessionStateError(`extension "${extension.name}": saved state has version ${saved.version}, this extension reads version ${expected}`, `$.extensions.${extension.name}.version`);
      }
      try {
        await extension.onLoadSession(ctx, saved.state);
      } catch (err) {
        throw new SessionStateError(`extension "${extension.name}" refused its saved state: ${toError(err).message}`, `$.extensions.${extension.name}.state`, { cause: err });
      }
    }
  }

  /** Runs every teardown (reverse order), removes every registration, and reports all failures together. */
  async teardown(): Promise<void> {
    const failures: Error[] = [];
    for (let i = this.installed.length - 1; i >= 0; i--) {
      const { extension, ctx } = this.installed[i];
      try {
        await extension.teardown?.();
      } catch (err) {
        failures.push(new ExtensionError(extension.name, `teardown failed: ${toError(err).message}`, { cause: err }));
      }
      ctx.removeAll();
      claims.delete(extension);
    }
    this.installed.length = 0;
    if (failures.length) throw new AggregateError(failures, `${failures.length} extension teardown(s) failed: ${failures.map((f) => f.message).join("; ")}`);
  }
}

function validateNames(extensions: readonly ExtensionLike[]): void {
  const seen = new Set<string>();
  for (const [i, ext] of extensions.entries()) {
    if (!ext || typeof ext.install !== "function") throw new ExtensionConflictError(`extension #${i + 1} has no install method`);
    if (typeof ext.name !== "string" || ext.name.trim() === "") throw new ExtensionConflictError(`extension #${i + 1} has an empty name; every extension needs a unique, non-empty name`);
    if (seen.has(ext.name)) throw new ExtensionConflictError(`two extensions are named "${ext.name}"; names must be unique`);
    seen.add(ext.name);
  }
}

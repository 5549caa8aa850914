import type { RunResult } from "../engine/run-types.js";
import { ExtensionConflictError, ExtensionContractError, ExtensionError, SessionStateError, toError } from "../errors.js";
import { assertJsonCompatible } from "../session/json-check.js";
import type { SavedExtensionState } from "../session/session-state.js";
import { summarize, type ExtensionContribution, type ExtensionSummary } from "./contribution.js";
import type { ExtensionContext } from "./extension-context.js";
import { openContext, type ContextControl } from "./open-context.js";
import type { ExtensionServices } from "./extension-services.js";
import { toLoaded, type ExtensionEntry, type ExtensionLike } from "./extension.js";
import { ContributionLedger } from "./ledger.js";
import { validateContribution } from "./validate-contribution.js";
import { historyProviderOwnedChange } from "../middleware/provider-owned.js";
import type { Message } from "../types/content.js";

/** What makes an object an extension: at least one of these. */
const HOOK_NAMES = ["install", "contribute", "onSessionStart", "beforeAgentStart", "onTurnStart", "onTurnSuccess", "onTurnEnd", "onSaveSession", "onLoadSession", "onSessionEnd", "close"] as const;

/** Which agent each extension instance is installed in: one instance serves one agent. */
const claims = new WeakMap<object, object>();


interface Installed {
  extension: ExtensionLike;
  ctx: ExtensionContext;
  control: ContextControl;
  ledger: ContributionLedger;
}

/**
 * Installs extensions and runs their lifecycle in the contract's order. Each extension's
 * declared contribution is validated whole before any of it applies; a failure undoes every
 * extension installed so far.
 */
export class ExtensionHost {
  private readonly installed: Installed[] = [];
  /** Install-phase lifecycle hooks that completed (they run once, before the first turn). */
  private readonly opened = new WeakSet<object>();
  private sessionStarted = false;

  constructor(
    entries: readonly ExtensionEntry[],
    private readonly services: ExtensionServices,
    private readonly limits: { maxFragmentChars: number },
    private readonly reportError: (extension: string, error: Error) => Promise<void> | undefined,
  ) {
    const loaded = entries.map((entry) => toLoaded(entry));
    validateNames(loaded.map((l) => l.extension));
    for (const { extension } of loaded) {
      const owner = claims.get(extension);
      if (owner && owner !== services) {
        throw new ExtensionError(extension.name, "this instance is already installed in another agent; create a new instance for each agent");
      }
    }
    // Array sort is stable: extensions of equal priority keep the order they were given in.
    const ordered = [...loaded].sort((a, b) => (a.extension.priority ?? 100) - (b.extension.priority ?? 100));
    for (const { extension, level, source } of ordered) {
      const ledger = new ContributionLedger(extension.name, level, source, typeof extension.version === "string" ? extension.version : undefined);
      const control = openContext(ledger, services, limits.maxFragmentChars);
      claims.set(extension, services);
      try {
        this.install(extension, control);
      } catch (err) {
        control.removeAll();
        claims.delete(extension);
        this.rollbackAll();
        if (err instanceof ExtensionError && err.extension === extension.name) throw err;
        const error = toError(err);
        throw new ExtensionError(extension.name, `install failed: ${error.message}`, { cause: error });
      }
      this.installed.push({ extension, ctx: control.context, control, ledger });
    }
  }

  private install(extension: ExtensionLike, control: ContextControl): void {
    const name = extension.name;
    if (!HOOK_NAMES.some((hook) => typeof extension[hook] === "function")) {
      throw new ExtensionContractError(name, "contribution", `an extension needs install(ctx), contribute() or a lifecycle hook (${HOOK_NAMES.slice(2).join(", ")})`);
    }
    const check = () => ({ extension: name, maxFragmentChars: this.limits.maxFragmentChars, toolOwner: (tool: string) => (this.services.tools.has(tool) ? this.services.tools.ownerOf(tool) ?? null : undefined) });
    if (typeof extension.contribute === "function") {
      const value: unknown = extension.contribute();
      refuseAsync(value, name, "contribute() must be synchronous: discover what you need before the agent is built");
      control.apply(validateContribution(value, check()));
    }
    if (typeof extension.install === "function") {
      const outcome: unknown = extension.install(control.context);
      refuseAsync(outcome, name, "install must be synchronous; acquire async resources in onTurnStart or a lifecycle contribution");
      if (outcome !== undefined) control.apply(validateContribution(outcome, check()));
    }
  }

  /** Names in install order. */
  names(): string[] {
    return this.installed.map((i) => i.extension.name);
  }

  /** Every extension's complete contribution (declared and registered), frozen, in install order. */
  contributions(): ExtensionContribution[] {
    return this.installed.map((i) => i.ledger.snapshot());
  }

  summaries(): ExtensionSummary[] {
    return this.contributions().map(summarize);
  }

  private rollbackAll(): void {
    for (let i = this.installed.length - 1; i >= 0; i--) {
      this.installed[i].control.removeAll();
      claims.delete(this.installed[i].extension);
    }
    this.installed.length = 0;
  }

  /** Runs install-phase lifecycle hooks not yet run, in install order (once: before the first turn needs them). */
  async open(): Promise<void> {
    for (const { extension, ledger } of this.installed) {
      for (const hook of ledger.list("lifecycle")) {
        if (hook.phase !== "install" || this.opened.has(hook)) continue;
        try {
          await hook.run();
        } catch (err) {
          throw new ExtensionError(extension.name, `lifecycle "${hook.id}" (install) failed: ${toError(err).message}`, { cause: err });
        }
        this.opened.add(hook);
      }
    }
  }

  /** Every `onSessionStart`, once per agent; failures are reported, never thrown. */
  async sessionStart(): Promise<void> {
    if (this.sessionStarted) return;
    this.sessionStarted = true;
    for (const { extension, ctx } of this.installed) {
      if (!extension.onSessionStart) continue;
      await Promise.resolve()
        .then(() => extension.onSessionStart!(ctx))
        .catch((err: unknown) => this.reportError(extension.name, new ExtensionError(extension.name, `onSessionStart failed: ${toError(err).message}`, { cause: err })));
    }
  }

  /** The messages the run's first request sends after every `beforeAgentStart`, or undefined when none changed them. */
  async beforeAgentStart(input: string, messages: readonly Message[]): Promise<readonly Message[] | undefined> {
    let current = messages;
    for (const { extension, ctx } of this.installed) {
      if (!extension.beforeAgentStart) continue;
      let out: unknown;
      try {
        out = await extension.beforeAgentStart(ctx, { input, messages: current });
      } catch (err) {
        throw new ExtensionError(extension.name, `beforeAgentStart failed: ${toError(err).message}`, { cause: err });
      }
      if (out === undefined || out === null) continue;
      if (!Array.isArray(out)) throw new ExtensionError(extension.name, "beforeAgentStart must return the messages (an array) or nothing");
      const change = historyProviderOwnedChange(current, out as readonly Message[]);
      if (change) throw new ExtensionError(extension.name, `beforeAgentStart: ${change}`);
      current = out as readonly Message[];
    }
    return current === messages ? undefined : current;
  }

  /** Opens what is not open yet (`open`), then runs every `onTurnStart`. */
  async turnStart(userMessage: string): Promise<void> {
    await this.open();
    for (const { extension, ctx } of this.installed) {
      if (!extension.onTurnStart) continue;
      try {
        await extension.onTurnStart(ctx, userMessage);
      } catch (err) {
        throw new ExtensionError(extension.name, `onTurnStart failed: ${toError(err).message}`, { cause: err });
      }
    }
  }

  async turnSuccess(finalText: string): Promise<void> {
    for (const { extension, ctx } of this.installed) {
      if (!extension.onTurnSuccess) continue;
      try {
        await extension.onTurnSuccess(ctx, finalText);
      } catch (err) {
        throw new ExtensionError(extension.name, `onTurnSuccess failed: ${toError(err).message}`, { cause: err });
      }
    }
  }

  /** Best-effort: failures are reported as ERROR events and never change the result. */
  async turnEnd(result: RunResult): Promise<void> {
    for (let i = this.installed.length - 1; i >= 0; i--) {
      const { extension, ctx } = this.installed[i];
      if (!extension.onTurnEnd) continue;
      try {
        await extension.onTurnEnd(ctx, result);
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

  /**
   * Unwinds: every `onSessionEnd` (reverse install order; failures reported, never thrown),
   * then in reverse install order each extension's teardown-phase lifecycle hooks, its
   * `close()` and every registration it made. Teardown failures are thrown together.
   */
  async close(): Promise<void> {
    for (let i = this.installed.length - 1; i >= 0; i--) {
      const { extension, ctx } = this.installed[i];
      if (!extension.onSessionEnd) continue;
      await Promise.resolve()
        .then(() => extension.onSessionEnd!(ctx))
        .catch((err: unknown) => this.reportError(extension.name, new ExtensionError(extension.name, `onSessionEnd failed: ${toError(err).message}`, { cause: err })));
    }
    const failures: Error[] = [];
    for (let i = this.installed.length - 1; i >= 0; i--) {
      const { extension, control, ledger } = this.installed[i];
      for (const hook of [...ledger.list("lifecycle")].reverse()) {
        if (hook.phase !== "teardown") continue;
        try {
          await hook.run();
        } catch (err) {
          failures.push(new ExtensionError(extension.name, `lifecycle "${hook.id}" (teardown) failed: ${toError(err).message}`, { cause: err }));
        }
      }
      try {
        await extension.close?.();
      } catch (err) {
        failures.push(new ExtensionError(extension.name, `close() failed: ${toError(err).message}`, { cause: err }));
      }
      control.removeAll();
      claims.delete(extension);
    }
    this.installed.length = 0;
    if (failures.length) throw new AggregateError(failures, `${failures.length} extension close(s) failed: ${failures.map((f) => f.message).join("; ")}`);
  }
}

function refuseAsync(value: unknown, extension: string, message: string): void {
  if (value && typeof (value as PromiseLike<unknown>).then === "function") {
    Promise.resolve(value).catch(() => undefined);
    throw new ExtensionContractError(extension, "contribution", message);
  }
}

function validateNames(extensions: readonly ExtensionLike[]): void {
  const seen = new Set<string>();
  for (const [i, ext] of extensions.entries()) {
    if (!ext || typeof ext !== "object") throw new ExtensionConflictError(`extension #${i + 1} is not an extension (got ${ext === null ? "null" : typeof ext})`);
    if (typeof ext.name !== "string" || ext.name.trim() === "") throw new ExtensionConflictError(`extension #${i + 1} has an empty name; every extension needs a unique, non-empty name (a factory is named by defineExtension(name, fn))`);
    if (seen.has(ext.name)) throw new ExtensionConflictError(`two extensions are named "${ext.name}"; names must be unique`);
    seen.add(ext.name);
  }
}

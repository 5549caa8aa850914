import type { RunResult } from "../engine/run-types.js";
import { ExtensionError, SessionStateError, toError } from "../errors.js";
import { assertJsonCompatible } from "../session/json-check.js";
import type { SavedExtensionState } from "../session/session-state.js";
import { summarize, type ExtensionContribution, type ExtensionSummary } from "./contribution.js";
import type { ExtensionServices } from "./extension-services.js";
import type { ExtensionEntry } from "./extension.js";
import { installExtensions, uninstall, type InstalledExtension } from "./install-extensions.js";
import { historyProviderOwnedChange } from "../middleware/provider-owned.js";
import type { Message } from "../types/content.js";

/**
 * Installs extensions (`installExtensions`) and runs their lifecycle in the contract's order, for
 * one agent.
 */
export class ExtensionHost {
  private readonly installed: InstalledExtension[];
  /** Install-phase lifecycle hooks that completed (they run once, before the first turn). */
  private readonly opened = new WeakSet<object>();
  private sessionStarted = false;

  constructor(
    entries: readonly ExtensionEntry[],
    services: ExtensionServices,
    limits: { maxFragmentChars: number },
    private readonly reportError: (extension: string, error: Error) => Promise<void> | undefined,
  ) {
    this.installed = installExtensions(entries, services, limits.maxFragmentChars);
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

  /** Runs install-phase lifecycle hooks not yet run, in install order (once: before the first turn needs them). */
  async open(): Promise<void> {
    for (const { extension, ledger } of this.installed) {
      for (const hook of ledger.list("lifecycle")) {
        if (hook.phase !== "install" || this.opened.has(hook)) continue;
        try {
          await hook.run();
        } catch (err) {
          throw new ExtensionError(extension.name, `lifecycle "${hook.id}" (install) failed: ${toError(err).message}`, {
            cause: err,
          });
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
        .catch((err: unknown) =>
          this.reportError(
            extension.name,
            new ExtensionError(extension.name, `onSessionStart failed: ${toError(err).message}`, { cause: err }),
          ),
        );
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
      if (!Array.isArray(out))
        throw new ExtensionError(extension.name, "beforeAgentStart must return the messages (an array) or nothing");
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
        throw new SessionStateError(
          `extension "${extension.name}": saved state must be { version: number, state }`,
          `$.extensions.${extension.name}`,
        );
      }
      if (saved.version !== expected) {
        throw new SessionStateError(
          `extension "${extension.name}": saved state has version ${saved.version}, this extension reads version ${expected}`,
          `$.extensions.${extension.name}.version`,
        );
      }
      try {
        await extension.onLoadSession(ctx, saved.state);
      } catch (err) {
        throw new SessionStateError(
          `extension "${extension.name}" refused its saved state: ${toError(err).message}`,
          `$.extensions.${extension.name}.state`,
          { cause: err },
        );
      }
    }
  }

  /**
   * Unwinds: every `onSessionEnd` (reverse install order; failures reported, never thrown),
   * then in reverse install order each extension's close-phase lifecycle hooks, its
   * `close()` and every registration it made. Teardown failures are thrown together.
   */
  async close(): Promise<void> {
    for (let i = this.installed.length - 1; i >= 0; i--) {
      const { extension, ctx } = this.installed[i];
      if (!extension.onSessionEnd) continue;
      await Promise.resolve()
        .then(() => extension.onSessionEnd!(ctx))
        .catch((err: unknown) =>
          this.reportError(
            extension.name,
            new ExtensionError(extension.name, `onSessionEnd failed: ${toError(err).message}`, { cause: err }),
          ),
        );
    }
    const failures: Error[] = [];
    for (let i = this.installed.length - 1; i >= 0; i--) {
      const { extension, control, ledger } = this.installed[i];
      for (const hook of [...ledger.list("lifecycle")].reverse()) {
        if (hook.phase !== "close") continue;
        try {
          await hook.run();
        } catch (err) {
          failures.push(
            new ExtensionError(extension.name, `lifecycle "${hook.id}" (close) failed: ${toError(err).message}`, {
              cause: err,
            }),
          );
        }
      }
      try {
        await extension.close?.();
      } catch (err) {
        failures.push(new ExtensionError(extension.name, `close() failed: ${toError(err).message}`, { cause: err }));
      }
      uninstall(extension, control);
    }
    this.installed.length = 0;
    if (failures.length)
      throw new AggregateError(
        failures,
        `${failures.length} extension close(s) failed: ${failures.map((f) => f.message).join("; ")}`,
      );
  }
}

import { ExtensionConflictError, ExtensionContractError, ExtensionError, toError } from "../errors.js";
import type { ExtensionContext } from "./extension-context.js";
import type { ExtensionServices } from "./extension-services.js";
import { toLoaded, type ExtensionEntry, type ExtensionLike } from "./extension.js";
import { ContributionLedger } from "./ledger.js";
import { openContext, type ContextControl } from "./open-context.js";
import { validateContribution } from "./validate-contribution.js";

/** What makes an object an extension: at least one of these. */
const HOOK_NAMES = [
  "install",
  "contribute",
  "onSessionStart",
  "beforeAgentStart",
  "onTurnStart",
  "onTurnSuccess",
  "onTurnEnd",
  "onSaveSession",
  "onLoadSession",
  "onSessionEnd",
  "close",
] as const;

/** Which agent each extension instance is installed in: one instance serves one agent. */
const claims = new WeakMap<object, object>();

/** An extension installed in an agent: its context, what controls that context, and what it contributed. */
export interface InstalledExtension {
  extension: ExtensionLike;
  ctx: ExtensionContext;
  control: ContextControl;
  ledger: ContributionLedger;
}

/**
 * Installs extensions in priority order (install order among equals). Each extension's declared
 * contribution is validated whole before any of it applies; a failure undoes every extension
 * installed so far and throws.
 */
export function installExtensions(
  entries: readonly ExtensionEntry[],
  services: ExtensionServices,
  maxFragmentChars: number,
): InstalledExtension[] {
  const loaded = entries.map((entry) => toLoaded(entry));
  validateNames(loaded.map((l) => l.extension));
  for (const { extension } of loaded) {
    const owner = claims.get(extension);
    if (owner && owner !== services) {
      throw new ExtensionError(
        extension.name,
        "this instance is already installed in another agent; create a new instance for each agent",
      );
    }
  }
  const installed: InstalledExtension[] = [];
  // Array sort is stable: extensions of equal priority keep the order they were given in.
  const ordered = [...loaded].sort((a, b) => (a.extension.priority ?? 100) - (b.extension.priority ?? 100));
  for (const { extension, level, source } of ordered) {
    const ledger = new ContributionLedger(
      extension.name,
      level,
      source,
      typeof extension.version === "string" ? extension.version : undefined,
    );
    const control = openContext(ledger, services, maxFragmentChars);
    claims.set(extension, services);
    try {
      install(extension, control, services, maxFragmentChars);
    } catch (err) {
      uninstall(extension, control);
      for (let i = installed.length - 1; i >= 0; i--) uninstall(installed[i]!.extension, installed[i]!.control);
      if (err instanceof ExtensionError && err.extension === extension.name) throw err;
      const error = toError(err);
      throw new ExtensionError(extension.name, `install failed: ${error.message}`, { cause: error });
    }
    installed.push({ extension, ctx: control.context, control, ledger });
  }
  return installed;
}

/** Removes every registration the extension made and frees the instance for another agent. */
export function uninstall(extension: ExtensionLike, control: ContextControl): void {
  control.removeAll();
  claims.delete(extension);
}

function install(
  extension: ExtensionLike,
  control: ContextControl,
  services: ExtensionServices,
  maxFragmentChars: number,
): void {
  const name = extension.name;
  if (!HOOK_NAMES.some((hook) => typeof extension[hook] === "function")) {
    throw new ExtensionContractError(
      name,
      "contribution",
      `an extension needs install(ctx), contribute() or a lifecycle hook (${HOOK_NAMES.slice(2).join(", ")})`,
    );
  }
  const check = () => ({
    extension: name,
    maxFragmentChars,
    toolOwner: (tool: string) => (services.tools.has(tool) ? (services.tools.ownerOf(tool) ?? null) : undefined),
  });
  if (typeof extension.contribute === "function") {
    const value: unknown = extension.contribute();
    refuseAsync(value, name, "contribute() must be synchronous: discover what you need before the agent is built");
    control.apply(validateContribution(value, check()));
  }
  if (typeof extension.install === "function") {
    const outcome: unknown = extension.install(control.context);
    refuseAsync(
      outcome,
      name,
      "install must be synchronous; acquire async resources in onTurnStart or a lifecycle contribution",
    );
    if (outcome !== undefined) control.apply(validateContribution(outcome, check()));
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
    if (!ext || typeof ext !== "object")
      throw new ExtensionConflictError(
        `extension #${i + 1} is not an extension (got ${ext === null ? "null" : typeof ext})`,
      );
    if (typeof ext.name !== "string" || ext.name.trim() === "")
      throw new ExtensionConflictError(
        `extension #${i + 1} has an empty name; every extension needs a unique, non-empty name (a factory is named by defineExtension(name, fn))`,
      );
    if (seen.has(ext.name))
      throw new ExtensionConflictError(`two extensions are named "${ext.name}"; names must be unique`);
    seen.add(ext.name);
  }
}

import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { ExtensionConflictError } from "@harnessx/core";
import {
  toExtension,
  type DiscoveredMcpServer,
  type ExtensionEntry,
  type LoadedExtension,
} from "@harnessx/core/extension";
import { loadDeclarativeResources } from "../declarative/declarative-extensions.js";
import {
  resourceFiles,
  type InvalidResource,
  type ResourceKind,
  type ResourceRoot,
} from "../declarative/resource-files.js";
import { extensionFiles } from "./candidates.js";
import { projectMcpFiles, readMcpFiles, userMcpFiles, type McpConfigFile } from "./mcp-config.js";
import { isMissing } from "./fs-missing.js";
import { harnessxHome, trustFilePath } from "@harnessx/core";
import { loadExtensionModule, pinnedModules } from "./load-extension-module.js";
import type { ProjectPin } from "./project-pin.js";
import { TrustStore } from "./trust-store.js";

/** Where `discover()` and `planDiscovery()` look, and what they start from; every field has a default. */
export interface DiscoverOptions {
  /** The project whose `.harnessx/{extensions,skills,commands,prompts}/` are considered; default `process.cwd()`. */
  cwd?: string;
  /** The user's folder, holding `extensions/`, `skills/`, `commands/`, `prompts/` and `trust.json`; default `HARNESSX_HOME`, else `~/.harnessx`. */
  userDir?: string;
  /** Where project trust is recorded; default `<userDir>/trust.json`. */
  trustStore?: TrustStore;
  /** The application's own extensions: first in the result, at level `builtin`. */
  builtins?: readonly ExtensionEntry[];
}

/** A project file (an extension, or a skill, command or template) found by name and deliberately not loaded. */
export interface SkippedExtension {
  /** The file (a knowledge bundle: its folder) left unloaded. */
  readonly path: string;
  /** What the file would have been. */
  readonly kind: "extension" | ResourceKind | "mcp";
  /** Always `project`: only project files wait for trust. */
  readonly level: "project";
  /** `untrusted`: the project was never trusted (or was revoked); `changed since trusted`: trust it again after review. */
  readonly reason: "untrusted" | "changed since trusted";
}

/** An extension file discovery would import, with the level it would load at. */
export interface ExtensionCandidate {
  /** The extension file, as an absolute path. */
  readonly path: string;
  /** `user` for the user's folder, `project` for a trusted project's. */
  readonly level: "user" | "project";
}

/** What discovery would do now, decided from file names and trust alone: nothing is imported. */
export interface DiscoveryPlan {
  /** User files, then project files, each folder sorted by name. */
  readonly load: readonly ExtensionCandidate[];
  /** Project files left out because the project is untrusted or changed since trusted; empty when it is trusted. */
  readonly skipped: readonly SkippedExtension[];
  /** The folders whose skills, commands and templates load: the user's, then the project's when it is trusted. */
  readonly resourceRoots: readonly ResourceRoot[];
  /** Files naming MCP servers to start: the user's `mcp.json`, then the project's `.mcp.json` and `.harnessx/mcp.json` when it is trusted. */
  readonly mcpFiles: readonly McpConfigFile[];
}

/** What `discover()` found: the extensions to install, and what it left out and why. */
export interface DiscoveryResult {
  /**
   * Built-ins, then user, then trusted project extensions, then the `skills`, `commands` and
   * `prompt-templates` extensions made of the data-only folders; ready for `new Agent({ extensions })`.
   */
  extensions: LoadedExtension[];
  /** Project files not loaded because the project is untrusted or changed since trusted. */
  skipped: SkippedExtension[];
  /** Skill, command, template and MCP configuration files (or entries) left out because they break a rule, each with its reason. */
  invalid: InvalidResource[];
  /**
   * The MCP servers the configuration files name, by name, unchecked and not started: pass them
   * to `connectMcpServers({ servers })` of `@harnessx/mcp` (which checks each entry).
   */
  mcpServers: Record<string, DiscoveredMcpServer>;
}

const RESOURCE_KINDS: readonly ResourceKind[] = ["skill", "command", "prompt", "knowledge"];

/**
 * Which extension files would load: every file of `<userDir>/extensions/` (the user installed
 * them), and those of `<cwd>/.harnessx/extensions/` only when the trust store says the project
 * is trusted and unchanged. A project whose `.harnessx` is the user folder itself loads once, as user.
 */
export function planDiscovery(options: Omit<DiscoverOptions, "builtins"> = {}): DiscoveryPlan {
  return decide(options).plan;
}

/** The plan, and the pin of a trusted project: what discovery reads from the project is read through it. */
function decide(options: Omit<DiscoverOptions, "builtins">): { plan: DiscoveryPlan; pin?: ProjectPin } {
  const userDir = resolve(options.userDir ?? harnessxHome());
  const cwd = resolve(options.cwd ?? process.cwd());
  const load: ExtensionCandidate[] = extensionFiles(join(userDir, "extensions")).map((path) => ({
    path,
    level: "user",
  }));
  const user: ResourceRoot = { dir: userDir, level: "user" };
  const userMcp = userMcpFiles(userDir);
  const projectHome = join(cwd, ".harnessx");
  if (sameFolder(projectHome, userDir))
    return { plan: { load, skipped: [], resourceRoots: [user], mcpFiles: userMcp } };
  const project: ResourceRoot = { dir: projectHome, level: "project" };
  const projectFiles: Array<{ path: string; kind: SkippedExtension["kind"] }> = [
    ...extensionFiles(join(projectHome, "extensions")).map((path) => ({ path, kind: "extension" as const })),
    ...RESOURCE_KINDS.flatMap((kind) => resourceFiles(project, kind).map(({ path }) => ({ path, kind }))),
  ];
  const projectMcp = projectMcpFiles(cwd);
  projectFiles.push(...projectMcp.map(({ path }) => ({ path, kind: "mcp" as const })));
  // Without project files there is nothing to decide, and no reason to read the trust file.
  if (projectFiles.length === 0) return { plan: { load, skipped: [], resourceRoots: [user], mcpFiles: userMcp } };
  const { status, pin } = (options.trustStore ?? new TrustStore(trustFilePath(userDir))).inspect(cwd);
  if (status === "trusted") {
    const code = projectFiles
      .filter((f) => f.kind === "extension")
      .map(({ path }) => ({ path, level: "project" as const }));
    return {
      plan: {
        load: [...load, ...code],
        skipped: [],
        resourceRoots: [user, project],
        mcpFiles: [...userMcp, ...projectMcp],
      },
      pin,
    };
  }
  const reason = status === "changed" ? "changed since trusted" : "untrusted";
  return {
    plan: {
      load,
      skipped: projectFiles.map(({ path, kind }) => ({ path, kind, level: "project", reason })),
      resourceRoots: [user],
      mcpFiles: userMcp,
    },
  };
}

/**
 * Finds and imports the extensions an agent should run: `builtins`, then the user's, then the
 * project's when it is trusted (see `planDiscovery`). Skipped project files are reported, never
 * imported. A trusted project is read only through the pin its trust check took: code, skills,
 * commands, templates, knowledge and MCP configuration changed after that check are refused. A
 * file that fails to import rejects with `ExtensionLoadError`: a broken guard must not silently
 * vanish. Two extensions with one name reject with `ExtensionConflictError`.
 */
export async function discover(options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const { plan, pin } = decide(options);
  const extensions: LoadedExtension[] = (options.builtins ?? []).map((entry) => ({
    extension: toExtension(entry),
    level: "builtin",
  }));
  const pinned = pin && plan.load.some((c) => c.level === "project") ? await pinnedModules(pin) : undefined;
  // One at a time, in order: extension modules may have import-time side effects.
  for (const { path, level } of plan.load)
    extensions.push(await loadExtensionModule(path, level, level === "project" ? pinned : undefined));
  const declarative = loadDeclarativeResources(
    plan.resourceRoots.map((root) => (root.level === "project" ? { ...root, pin } : root)),
  );
  extensions.push(...declarative.extensions);
  refuseDuplicateNames(extensions);
  const mcp = readMcpFiles(plan.mcpFiles, pin);
  return {
    extensions,
    skipped: [...plan.skipped],
    invalid: [...declarative.invalid, ...mcp.invalid],
    mcpServers: mcp.servers,
  };
}

function refuseDuplicateNames(extensions: readonly LoadedExtension[]): void {
  const seen = new Map<string, LoadedExtension>();
  for (const loaded of extensions) {
    const first = seen.get(loaded.extension.name);
    if (first) {
      throw new ExtensionConflictError(
        `two extensions are named "${loaded.extension.name}": ${origin(first)} and ${origin(loaded)}; rename or remove one`,
      );
    }
    seen.set(loaded.extension.name, loaded);
  }
}

function origin(loaded: LoadedExtension): string {
  return loaded.source ? `${loaded.source} (${loaded.level})` : "a built-in";
}

function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

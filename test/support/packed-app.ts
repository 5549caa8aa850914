// A fresh app outside the repository, installed from the packed workspaces as npm would publish
// them: shared by the packed-install test and scripts/install-footprint.mjs, so that the figure
// measured is the install the test checks.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The repository's root folder. */
export const repositoryRoot = new URL("../..", import.meta.url).pathname;

/** The optional peers `harnessx/otel-setup` needs, which an app that exports spans installs. */
export const OTEL_PEERS = [
  "@opentelemetry/sdk-node",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/resources",
  "@opentelemetry/core",
  "@opentelemetry/otlp-exporter-base",
  "@opentelemetry/otlp-transformer",
];

/** The workspaces that are published: every one not marked private. */
export function publishedWorkspaces(): string[] {
  const readJson = (dir: string) =>
    JSON.parse(readFileSync(join(repositoryRoot, dir, "package.json"), "utf8")) as {
      workspaces?: string[];
      private?: boolean;
    };
  return (readJson(".").workspaces ?? []).filter((dir) => !readJson(dir).private);
}

/** `name@version` as the repository has it installed: the app gets the versions CI checked. */
export function installed(name: string): string {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, "node_modules", name, "package.json"), "utf8")) as {
    version: string;
  };
  return `${name}@${manifest.version}`;
}

/** The environment of a user's shell: none of the npm settings or harnessx folders of this repository's run. */
export function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_|^HARNESSX_|^NODE_OPTIONS$|^INIT_CWD$/i.test(key)),
  );
  return { ...env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", LANGSMITH_API_KEY: "", OTEL_EXPORTER_OTLP_ENDPOINT: "" };
}

/** Runs a command as a user would, in `cwd`; throws with the end of its output when it fails. */
export function runAsUser(command: string, args: string[], cwd: string, timeout = 300_000): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout, env: userEnv() });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed in ${cwd} (status ${result.status}, ${result.error?.message ?? result.signal ?? "no signal"}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
    );
  }
  return result;
}

/** A packed workspace: its package name and its tarball's path. */
export interface Tarball {
  name: string;
  path: string;
}

/** Packs every published workspace (built `dist/` included) into `destination`. */
export function packWorkspaces(destination: string): Tarball[] {
  mkdirSync(destination, { recursive: true });
  const packed = runAsUser(
    "npm",
    ["pack", "--json", "--pack-destination", destination, ...publishedWorkspaces().flatMap((dir) => ["-w", dir])],
    repositoryRoot,
  );
  return (JSON.parse(packed.stdout) as Array<{ name: string; filename: string }>).map((p) => ({
    name: p.name,
    path: join(destination, p.filename),
  }));
}

/**
 * The tarballs `npm install harnessx` would fetch: `harnessx` and the workspaces it depends on,
 * not the others (the examples package depends on the tracing SDKs an app may leave out).
 */
export function harnessxTarballs(tarballs: Tarball[]): string[] {
  const manifests = new Map(
    publishedWorkspaces().map((dir) => {
      const manifest = JSON.parse(readFileSync(join(repositoryRoot, dir, "package.json"), "utf8")) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      return [manifest.name, Object.keys(manifest.dependencies ?? {})] as const;
    }),
  );
  const wanted = new Set<string>();
  const visit = (name: string): void => {
    if (wanted.has(name) || !manifests.has(name)) return;
    wanted.add(name);
    for (const dependency of manifests.get(name) ?? []) visit(dependency);
  };
  visit("harnessx");
  return tarballs.filter((t) => wanted.has(t.name)).map((t) => t.path);
}

/**
 * Makes an app in `folder` and installs `packages` there (tarballs and `name@version` specs) as
 * `npm install` in a new project does; returns npm's output (its warnings are on stderr).
 */
export function installApp(folder: string, packages: string[]): SpawnSyncReturns<string> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, "package.json"),
    JSON.stringify({ name: "my-agent-app", private: true, type: "module" }, null, 2),
  );
  // The packages depend on one another by version: installing every tarball at once satisfies them from the app's top level.
  return runAsUser("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...packages], folder, 600_000);
}

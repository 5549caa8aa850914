// Workspace packages installed alone in a folder outside the repository, with its
// dependencies but without some optional peers: what an app that never installed them has.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { repositoryRoot, userEnv } from "./packed-app.js";

/**
 * The app folder. Its `node_modules` holds a copy of each of `workspaces` (its `dist/`, and `bin/`
 * when it has one) and links to their other dependencies in the repository, which resolve their
 * own from there: a peer left out is missing for the copies only, which is where it is loaded.
 */
export function isolatedPackages(workspaces: readonly string[], without: readonly string[]): string {
  const app = mkdtempSync(join(tmpdir(), "hx-isolated-"));
  const manifests = workspaces.map((dir) => ({
    dir,
    ...(JSON.parse(readFileSync(join(repositoryRoot, dir, "package.json"), "utf8")) as Manifest),
  }));
  const copied = new Set(manifests.map((m) => m.name));
  for (const manifest of manifests) {
    const target = join(app, "node_modules", manifest.name);
    mkdirSync(target, { recursive: true });
    for (const part of ["package.json", "dist", "bin"]) {
      if (existsSync(join(repositoryRoot, manifest.dir, part)))
        cpSync(join(repositoryRoot, manifest.dir, part), join(target, part), { recursive: true });
    }
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      const link = join(app, "node_modules", name);
      if (without.includes(name) || copied.has(name) || existsSync(link)) continue;
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(repositoryRoot, "node_modules", name)), link, "dir");
    }
  }
  return app;
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Runs an ES module script in `app` as a user's process; its stdout, stderr and exit status. */
export function runModule(
  app: string,
  script: string,
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  return runNode(app, ["--input-type=module", "-e", script], env);
}

/** Runs node with `args` in `app` as a user's process, `env` added to the user's environment. */
export function runNode(
  app: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, {
    cwd: app,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...userEnv(), ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

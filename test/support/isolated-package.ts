// One workspace package installed alone in a folder outside the repository, with its
// dependencies but without some optional peers: what an app that never installed them has.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { repositoryRoot, userEnv } from "./packed-app.js";

/** The app folder; its `node_modules` holds a copy of the package (its `dist/`) and links to the rest. */
export function isolatedPackage(workspace: string, without: readonly string[]): string {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, workspace, "package.json"), "utf8")) as { name: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
  const app = mkdtempSync(join(tmpdir(), "hx-isolated-"));
  const target = join(app, "node_modules", manifest.name);
  mkdirSync(target, { recursive: true });
  cpSync(join(repositoryRoot, workspace, "package.json"), join(target, "package.json"));
  cpSync(join(repositoryRoot, workspace, "dist"), join(target, "dist"), { recursive: true });
  // Linked packages resolve their own dependencies from the repository; the copy resolves from `app` only.
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (without.includes(name)) continue;
    const link = join(app, "node_modules", name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(repositoryRoot, "node_modules", name)), link, "dir");
  }
  return app;
}

/** Runs an ES module script in `app` as a user's process; its stdout, stderr and exit status. */
export function runModule(app: string, script: string, args: string[] = []): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script, ...args], { cwd: app, encoding: "utf8", timeout: 60_000, env: userEnv() });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

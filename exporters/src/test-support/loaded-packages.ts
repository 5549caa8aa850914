import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** Records every URL the ESM loader resolves; runs on the loader's thread, so it writes synchronously to a file. */
const RESOLVE_HOOK = `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + "\\n");
  return result;
}`;

/**
 * Imports `specifier` (resolved from `cwd`) in a fresh `node` process and returns the names of the
 * installed packages that loaded, sorted: those resolved through the ESM loader (seen by a
 * `module.register` resolve hook) and the CommonJS files they required (`require.cache`, which
 * the hook does not see on Node 20). Workspace packages resolve to their folders and are not listed.
 */
export async function packagesLoadedBy(specifier: string, cwd: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "harnessx-loads-"));
  const log = join(dir, "resolved.txt");
  const program = `
    import { createRequire, register } from "node:module";
    register("data:text/javascript," + encodeURIComponent(${JSON.stringify(RESOLVE_HOOK)}), { data: { log: ${JSON.stringify(log)} } });
    await import(${JSON.stringify(specifier)});
    process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url)("node:module")._cache)));`;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", program], {
      cwd,
      timeout: 60_000,
    });
    const files = [...readFileSync(log, "utf8").split("\n"), ...(JSON.parse(stdout) as string[])];
    const names = files
      .map((f) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1])
      .filter((n): n is string => n !== undefined);
    return [...new Set(names)].sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Reads the import graph of the workspace's TypeScript sources (type-only imports, dynamic imports
// and import types included).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const root = resolve(new URL("../..", import.meta.url).pathname);
const SKIP = new Set(["node_modules", "dist", ".turbo", ".harnessx"]);
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/g;
/** `import("x")`: a dynamic import, or an import type such as `import("./x.js").Name`. */
const IMPORT_CALL = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Every import specifier of a file. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT), ...text.matchAll(IMPORT_CALL)].map((m) => m[1]!);
}

/** Relative imports resolved to source files (`./x.js` is `./x.ts`). */
export function localImports(file: string): string[] {
  return importsOf(file)
    .filter((s) => s.startsWith("."))
    .map((s) => resolve(dirname(file), s.replace(/\.js$/, ".ts")));
}

/** Import cycles among `files`, each as the list of files around it (relative to the repo). */
export function cycles(files: string[]): string[][] {
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, localImports(f).filter((i) => known.has(i))]));
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((f) => relative(root, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
}

import { promises as fs } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { readRunManifest } from "@harnessx/recorder";
import type { CommandContext } from "../context.js";
import { invalidInput, notFound, usageError } from "../errors.js";

/** What a `<run>` argument named: a recorded run in a store, or an incident bundle file. */
export type Target =
  | { kind: "run"; storeDir: string; runDir: string; runId: string }
  | { kind: "bundle"; path: string };

/** Options of `resolveTarget`. */
export interface ResolveOptions {
  /** Accept a bundle file. Default true. */
  bundles?: boolean;
}

const isDir = (path: string) => fs.stat(path).then((s) => s.isDirectory(), () => false);
const exists = (path: string) => fs.stat(path).then(() => true, () => false);

/** Checks that `--store` is a store; returns its absolute path. */
export async function ensureStore(ctx: CommandContext): Promise<string> {
  const dir = ctx.path(ctx.options.store);
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat) throw notFound(`no recording store at ${ctx.options.store} (record a run with FlightRecorderExtension, or pass --store DIR)`);
  if (!stat.isDirectory() || !(await isDir(join(dir, "runs")))) {
    throw invalidInput(`${ctx.options.store} is not a harnessx recording store (it has no runs/ folder)`);
  }
  return dir;
}

/** Run directory names in a store (percent-encoded ids decoded back). */
export async function runIdsIn(storeDir: string): Promise<Array<{ runId: string; dir: string }>> {
  const names = await fs.readdir(join(storeDir, "runs")).catch(() => [] as string[]);
  const out: Array<{ runId: string; dir: string }> = [];
  for (const name of names) {
    let runId = name;
    try {
      runId = decodeURIComponent(name);
    } catch {
      // not percent-encoded: the directory name is the id
    }
    out.push({ runId, dir: join(storeDir, "runs", name) });
  }
  return out;
}

/**
 * Resolves a `<run>` argument: an existing file is a bundle, a directory with `run.json` is a run
 * directory, anything else is a run id or a unique prefix of one in `--store`.
 */
export async function resolveTarget(ctx: CommandContext, text: string, options: ResolveOptions = {}): Promise<Target> {
  if (text.trim() === "") throw usageError("the run argument is empty");
  const path = ctx.path(text);
  const stat = await fs.stat(path).catch(() => undefined);
  if (stat?.isFile()) {
    if (options.bundles === false) throw usageError(`${text} is a file; this command works on a recorded run (an id or a run directory), not a bundle`);
    return { kind: "bundle", path };
  }
  if (stat?.isDirectory()) {
    if (!(await exists(join(path, "run.json")))) {
      if (await isDir(join(path, "runs"))) throw usageError(`${text} is a store; pass it as --store ${text} and name a run`);
      throw invalidInput(`${text} is a directory but not a recorded run (no run.json)`);
    }
    const { runId } = await readRunManifest(path);
    const storeDir = basename(dirname(path)) === "runs" ? resolve(path, "..", "..") : dirname(path);
    return { kind: "run", storeDir, runDir: path, runId };
  }
  if (/[/\\]/.test(text) || /\.(tar|bundle)$/i.test(text)) throw notFound(`no such file or directory: ${text}`);

  const storeDir = await ensureStore(ctx);
  const runs = await runIdsIn(storeDir);
  const exact = runs.find((r) => r.runId === text);
  const matches = exact ? [exact] : runs.filter((r) => r.runId.startsWith(text));
  if (matches.length === 0) throw notFound(`no run matches "${text}" in ${ctx.options.store} (trace ls lists the runs)`);
  if (matches.length > 1) {
    const shown = matches.slice(0, 5).map((m) => m.runId).sort();
    const more = matches.length > 5 ? ` and ${matches.length - 5} more` : "";
    throw notFound(`run id prefix "${text}" is ambiguous: it matches ${matches.length} runs (${shown.join(", ")}${more}); give more characters`);
  }
  return { kind: "run", storeDir, runDir: matches[0].dir, runId: matches[0].runId };
}

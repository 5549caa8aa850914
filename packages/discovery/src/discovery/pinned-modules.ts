import type { createJiti as CreateJiti, Jiti, ModuleCache, TransformOptions, TransformResult } from "jiti";
import { isBuiltin } from "node:module";
import { dirname, extname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProjectPin } from "./project-pin.js";

/** The property of the transform function through which compiled project modules reach their loader. */
const HOOK = "harnessxPinnedModules";

/**
 * Put at the top of every module compiled from under the project's `.harnessx`: its `require` and
 * `jitiImport` (what jiti's compiled `import`s call) go through `PinnedModules.imports`. `require` is
 * the module's jiti instance, whose options hold the transform function below.
 */
const SHIM = `[require, jitiImport] = require.options.transform.${HOOK}.imports(__filename, require, jitiImport, jitiESMResolve);`;
const STRICT = /^(["'])use strict\1;?/;

/** What jiti's compiled imports call: `jitiImport(specifier)`. */
type ImportFunction = (id: string, options?: object) => Promise<unknown>;

/** Where an import goes: a pinned file of the project, or on to jiti as `spec`. */
type Route = { pinned: true; path: string } | { pinned: false; spec: string };

/**
 * Imports a trusted project's extension files from the bytes trust pinned, never from what is
 * on disk at import time. The entry file is read once through the pin and jiti evaluates those
 * bytes. Every module compiled from under the project's `.harnessx` gets its imports routed
 * here: one that resolves under `.harnessx` is read through the pin too (refused when edited,
 * added, removed or a symlink); a relative import that would leave `.harnessx` through a symlink
 * is refused; packages, built-ins and files elsewhere go on to jiti unchanged. One instance per
 * discovery: a helper two extensions import is evaluated once.
 */
export class PinnedModules {
  /** jiti's module cache, shared by every module of this discovery: a cycle gets the partial exports, as in Node. */
  private readonly cache: ModuleCache = {};
  private readonly jiti: Jiti;

  constructor(
    createJiti: typeof CreateJiti,
    private readonly pin: ProjectPin,
  ) {
    const compiler = createJiti(import.meta.url, { fsCache: false, moduleCache: false, interopDefault: false });
    const transform = Object.assign((options: TransformOptions): TransformResult => this.compile(compiler, options), {
      [HOOK]: this,
    });
    this.jiti = createJiti(import.meta.url, { fsCache: false, moduleCache: false, interopDefault: false, transform });
  }

  /** Imports a pinned extension file (a path under the project's `.harnessx/extensions/`). */
  async import(file: string): Promise<unknown> {
    return this.load(this.pin.locate(file) ?? file, true);
  }

  /** Called by the shim of each project module: its `require` and `jitiImport`, routed. */
  imports(
    importer: string,
    require: Jiti,
    jitiImport: ImportFunction,
    esmResolve: Jiti["esmResolve"],
  ): [Jiti, ImportFunction] {
    const routedImport = async (spec: string, options?: object) => {
      const route = this.route(importer, spec, (s) => esmResolve(s));
      return route.pinned ? this.load(route.path, true) : jitiImport(route.spec, options);
    };
    const routedRequire = new Proxy(require, {
      apply: (target, self, args: unknown[]) => {
        const route = this.route(importer, args[0], (s) => target.resolve(s));
        return route.pinned
          ? this.load(route.path, false)
          : Reflect.apply(target, self, [route.spec, ...args.slice(1)]);
      },
    });
    return [routedRequire, routedImport];
  }

  private load(path: string, async: boolean): unknown {
    const cached = this.cache[path];
    if (cached) return cached.exports;
    const text = this.pin.read(path).toString("utf8");
    if (extname(path) === ".json") {
      const value: unknown = JSON.parse(text);
      // As jiti does for JSON: `import data from "./x.json"` reads `default`.
      if (typeof value === "object" && value !== null && !("default" in value))
        Object.defineProperty(value, "default", { value, enumerable: false });
      this.cache[path] = { exports: value } as ModuleCache[string];
      return value;
    }
    return this.jiti.evalModule(text, { filename: path, async, forceTranspile: true, cache: this.cache });
  }

  /**
   * Resolves `spec` once, as jiti would, and hands jiti the resolved file rather than the
   * specifier, so a link swapped in between cannot send jiti somewhere else.
   */
  private route(importer: string, spec: unknown, resolveSpec: (spec: string) => unknown): Route {
    if (typeof spec !== "string" || isBuiltin(spec)) return { pinned: false, spec: spec as string };
    const target = asPath(resolveSpec(spec));
    if (target === undefined) return { pinned: false, spec };
    if (this.pin.covers(target)) return { pinned: true, path: target };
    const written = spec.startsWith("file:")
      ? fileURLToPath(spec)
      : /^\.\.?(\/|$)/.test(spec) || isAbsolute(spec)
        ? resolve(dirname(importer), spec)
        : undefined;
    if (written !== undefined && this.pin.covers(written)) {
      throw this.pin.throughLink(
        written,
        `is imported by ${importer} but resolves to ${target}, outside .harnessx, through a symlink`,
      );
    }
    return { pinned: false, spec: target };
  }

  /** Checks a module compiled from under `.harnessx` against the pin, and routes its imports. */
  private compile(compiler: Jiti, options: TransformOptions): TransformResult {
    if (options.filename === undefined || !this.pin.covers(options.filename))
      return { code: compiler.transform(options) };
    this.pin.check(options.filename, options.source);
    const code = compiler.transform(options);
    const strict = STRICT.exec(code)?.[0] ?? "";
    return { code: `${strict}${SHIM}${code.slice(strict.length)}` };
  }
}

function asPath(resolved: unknown): string | undefined {
  const text = String(resolved);
  if (text.startsWith("file:")) return fileURLToPath(text);
  return isAbsolute(text) ? text : undefined;
}

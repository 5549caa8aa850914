import type { Jiti } from "jiti";
import { basename, dirname, extname } from "node:path";
import { ExtensionLoadError, toError } from "@harnessx/core";
import { toExtension, type LoadedExtension } from "@harnessx/core/extension";
import type { TrustLevel } from "@harnessx/core/extension";
import { PinnedModules } from "./pinned-modules.js";
import type { ProjectPin } from "./project-pin.js";

let library: Promise<typeof import("jiti")> | undefined;
let loader: Promise<Jiti> | undefined;

/** jiti (and the compiler it brings) is loaded on the first discovered file only, keeping it off the start-up of agents that never discover. */
function jitiLibrary(): Promise<typeof import("jiti")> {
  library ??= import("jiti");
  return library;
}

/**
 * The loader of user files. Module cache off: an edited file is read again; file cache off:
 * loading writes nothing to the user's disk; no default interop, so "has no default export" is visible.
 */
function jiti(): Promise<Jiti> {
  loader ??= jitiLibrary().then(({ createJiti }) =>
    createJiti(import.meta.url, { moduleCache: false, fsCache: false, interopDefault: false }),
  );
  return loader;
}

/** The loader of a trusted project's files, which imports only the bytes `pin` vouches for. */
export async function pinnedModules(pin: ProjectPin): Promise<PinnedModules> {
  return new PinnedModules((await jitiLibrary()).createJiti, pin);
}

/**
 * Imports one extension file (TypeScript or JavaScript) and turns its default export into an
 * extension at `level` with the file as its source. Accepted: an Extension instance or
 * subclass, a definition `{ name, install?, contribute? }`, or a factory `(hx) => void` named
 * after the file (`<name>/index.ts` after its folder). A module without a default export
 * counts when it is itself shaped like a definition. A trusted project's files are imported
 * through `pinned`, from the bytes trust compared.
 */
export async function loadExtensionModule(
  file: string,
  level: TrustLevel,
  pinned?: PinnedModules,
): Promise<LoadedExtension> {
  let module: unknown;
  try {
    module = await (pinned ? pinned.import(file) : (await jiti()).import(file));
  } catch (err) {
    throw new ExtensionLoadError(file, describe(err), { cause: err });
  }
  const hasDefault = isRecord(module) && Object.hasOwn(module, "default");
  const exported = hasDefault ? (module as { default: unknown }).default : module;
  let extension: unknown;
  try {
    extension = toExtension(exported, nameFromFile(file));
  } catch (err) {
    throw new ExtensionLoadError(file, `creating its extension failed: ${describe(err)}`, { cause: err });
  }
  if (!isExtensionShaped(extension)) {
    const got = hasDefault
      ? `its default export is ${kind(exported)}`
      : "it has no default export and its exports are not an extension";
    throw new ExtensionLoadError(
      file,
      `${got}; export default an Extension instance or subclass, a definition { name, install or contribute }, or a factory function (hx) => void`,
    );
  }
  // Level and source come from where the file was found, never from what it exports.
  return { extension, level, source: file };
}

function nameFromFile(file: string): string {
  const name = basename(file, extname(file));
  return name === "index" ? basename(dirname(file)) : name;
}

function isExtensionShaped(value: unknown): value is LoadedExtension["extension"] {
  if (typeof value !== "object" || value === null) return false;
  const { name, install, contribute } = value as Partial<Record<"name" | "install" | "contribute", unknown>>;
  return typeof name === "string" && (typeof install === "function" || typeof contribute === "function");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

function kind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a class whose instances have no name and install() or contribute()";
  return typeof value === "object" ? "an object without a name and install() or contribute()" : `a ${typeof value}`;
}

/** One line: compilers report the position on a second line, which a CLI would cut off. */
function describe(err: unknown): string {
  const error = toError(err);
  const text = error.message.replace(/\s+/g, " ").trim();
  return error.name !== "Error" && !text.startsWith(error.name) ? `${error.name}: ${text}` : text;
}

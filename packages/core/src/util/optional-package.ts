import { MissingPackageError } from "../errors.js";
import { nearestManifest } from "./package-manifest.js";

/** What a feature loads from optional peers: its name in messages and the packages it needs. */
export interface OptionalPackages {
  /** What needs them, as the user knows it: `OpenAIProvider`, `trace push --to langsmith`. */
  feature: string;
  /** The packages, all named in the install command of the error (one feature, one command). */
  packages: readonly string[];
}

/**
 * Runs `load` (a dynamic `import()` of an optional peer, written in the caller's module so that it
 * resolves from the caller's package) and turns "that package is not installed" into a
 * `MissingPackageError` whose command installs the versions the caller's `package.json` declares
 * as peers (`moduleUrl` is the caller's `import.meta.url`). Any other failure, a missing package
 * the peer itself needs included, is rethrown as it is: installing the peer would not fix it.
 */
export async function importOptional<T>(moduleUrl: string, need: OptionalPackages, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const missing = need.packages.find((name) => isMissing(err, name));
    if (missing === undefined) throw err;
    const peers = nearestManifest(moduleUrl)?.peerDependencies;
    const range = (name: string) =>
      peers && typeof peers === "object" ? (peers as Record<string, unknown>)[name] : undefined;
    const specs = need.packages.map((name) =>
      typeof range(name) === "string" ? `${name}@${String(range(name))}` : name,
    );
    throw new MissingPackageError(missing, need.feature, specs, { cause: err });
  }
}

/** Node's "Cannot find package 'x' imported from ..." for this very package (any of its subpaths). */
function isMissing(err: unknown, name: string): boolean {
  if (!(err instanceof Error) || (err as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return false;
  return err.message.includes(`Cannot find package '${name}'`);
}

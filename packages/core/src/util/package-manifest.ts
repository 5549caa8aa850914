import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The fields of a `package.json` harnessx reads about itself. */
export interface PackageManifest {
  version?: unknown;
  peerDependencies?: unknown;
}

const manifests = new Map<string, PackageManifest | undefined>();

/**
 * The nearest `package.json` above a module (pass `import.meta.url`), read once per module;
 * undefined when there is none (a bundled or inlined module) or it is not JSON.
 */
export function nearestManifest(moduleUrl: string): PackageManifest | undefined {
  if (manifests.has(moduleUrl)) return manifests.get(moduleUrl);
  let manifest: PackageManifest | undefined;
  try {
    let dir = dirname(fileURLToPath(moduleUrl));
    for (let depth = 0; depth < 6; depth++, dir = dirname(dir)) {
      const text = readText(join(dir, "package.json"));
      if (text === undefined) continue;
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === "object") manifest = parsed as PackageManifest;
      break;
    }
  } catch {
    // Not a file URL, or a package.json that is not JSON: no manifest.
  }
  manifests.set(moduleUrl, manifest);
  return manifest;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

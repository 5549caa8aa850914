import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const versions = new Map<string, string>();

/**
 * The version in the nearest `package.json` above a module (pass `import.meta.url`), read once
 * per module: how a packaged extension states its `version`. "unknown" when there is none (a
 * bundled or inlined module).
 */
export function packageVersion(moduleUrl: string): string {
  let version = versions.get(moduleUrl);
  if (version !== undefined) return version;
  version = "unknown";
  try {
    let dir = dirname(fileURLToPath(moduleUrl));
    for (let depth = 0; depth < 6; depth++, dir = dirname(dir)) {
      const text = readText(join(dir, "package.json"));
      if (text === undefined) continue;
      const found = (JSON.parse(text) as { version?: unknown }).version;
      if (typeof found === "string") version = found;
      break;
    }
  } catch {
    // Not a file URL, or a package.json that is not JSON: the version stays unknown.
  }
  versions.set(moduleUrl, version);
  return version;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

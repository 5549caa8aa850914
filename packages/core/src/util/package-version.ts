import { nearestManifest } from "./package-manifest.js";

/**
 * The version in the nearest `package.json` above a module (pass `import.meta.url`), read once
 * per module: how a packaged extension states its `version`. "unknown" when there is none (a
 * bundled or inlined module).
 */
export function packageVersion(moduleUrl: string): string {
  const version = nearestManifest(moduleUrl)?.version;
  return typeof version === "string" ? version : "unknown";
}

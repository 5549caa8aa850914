import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { InvalidResource } from "../declarative/resource-files.js";
import type { ProjectPin } from "./project-pin.js";
import type { DiscoveredMcpServer } from "@harnessx/core/extension";

/** A file naming MCP servers: its path and the trust level it loads at. */
export interface McpConfigFile {
  /** The file: the user's `mcp.json`, or a project's `.mcp.json` or `.harnessx/mcp.json`. */
  readonly path: string;
  /** `user` for the user's file, `project` for a project's. */
  readonly level: "user" | "project";
}

/** A config file is read whole; past this it is refused. */
const MAX_CONFIG_BYTES = 1024 * 1024;

const exists = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** The user's `mcp.json`, when there is one. */
export function userMcpFiles(userDir: string): McpConfigFile[] {
  const path = join(userDir, "mcp.json");
  return exists(path) ? [{ path, level: "user" }] : [];
}

/** A project's `.mcp.json` (the format other tools share) and `.harnessx/mcp.json`, those that exist. */
export function projectMcpFiles(cwd: string): McpConfigFile[] {
  return [join(cwd, ".mcp.json"), join(cwd, ".harnessx", "mcp.json")]
    .filter(exists)
    .map((path) => ({ path, level: "project" as const }));
}

/**
 * The servers the files name (`{ "mcpServers": { name: entry } }`), in order: a name already
 * taken by an earlier file (the user's come first) is left out, so a project cannot replace the
 * user's server. A file that is not such JSON is listed in `invalid` with its reason. A
 * project's files are read through `pin`: one changed since the trust check is refused.
 */
export function readMcpFiles(
  files: readonly McpConfigFile[],
  pin?: ProjectPin,
): { servers: Record<string, DiscoveredMcpServer>; invalid: InvalidResource[] } {
  const servers: Record<string, DiscoveredMcpServer> = {};
  const invalid: InvalidResource[] = [];
  for (const file of files) {
    const skip = (reason: string) => invalid.push({ kind: "mcp", path: file.path, level: file.level, reason });
    const through = file.level === "project" ? pin : undefined;
    let text: string;
    try {
      const pinned = through?.entry(file.path);
      const size = through ? (pinned?.kind === "file" ? pinned.size : 0) : statSync(file.path).size;
      if (size > MAX_CONFIG_BYTES) {
        skip(`it is ${size} bytes; an MCP configuration may hold at most ${MAX_CONFIG_BYTES}`);
        continue;
      }
      text = through ? through.read(file.path).toString("utf8") : readFileSync(file.path, "utf8");
    } catch (err) {
      skip((err as Error).message);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      skip(`it is not valid JSON (${(err as Error).message})`);
      continue;
    }
    const map =
      value && typeof value === "object" && !Array.isArray(value)
        ? (value as { mcpServers?: unknown }).mcpServers
        : undefined;
    if (!map || typeof map !== "object" || Array.isArray(map)) {
      skip('field "mcpServers" must be an object of servers by name');
      continue;
    }
    for (const [name, config] of Object.entries(map)) {
      const taken = servers[name];
      if (taken)
        invalid.push({
          kind: "mcp",
          path: file.path,
          level: file.level,
          reason: `server "${name}" is already defined by ${taken.source}`,
        });
      else servers[name] = { config, source: file.path, level: file.level };
    }
  }
  return { servers, invalid };
}

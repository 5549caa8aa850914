import type { Permission } from "@harnessx/core/extension";
import { McpConfigError } from "./errors.js";

interface ServerOptions {
  /** Skip this server (with a recorded warning) when it cannot be reached, instead of failing. */
  optional?: boolean;
  /** Narrows the permission of every tool of this server (it can never widen the user's rules). */
  permission?: Permission;
  /** Time limit of one call. Default 60 s. */
  timeoutSeconds?: number;
}

/** A server started as a child process, talking over stdin/stdout (the `.mcp.json` shape). */
export interface McpStdioServer extends ServerOptions {
  /** Executable that starts the server (looked up on `PATH`). */
  command: string;
  /** Arguments passed to `command`. Default none. */
  args?: string[];
  /** Extra environment variables; the server otherwise gets only `PATH`, `HOME` and a few others, not this process's whole environment. */
  env?: Record<string, string>;
  /** Working directory of the server process. Default `ConnectMcpOptions.cwd`. */
  cwd?: string;
}

/** A server reached over streamable HTTP (falling back to the older SSE transport). */
export interface McpHttpServer extends ServerOptions {
  /** The server's endpoint; must be `http:` or `https:`. */
  url: string;
  /** HTTP headers sent with every request, e.g. `Authorization`. */
  headers?: Record<string, string>;
}

/** One entry of `mcpServers`: a stdio server when it has `command`, an HTTP server when it has `url` (never both). */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/**
 * A server name is the middle of `mcp__<server>__<tool>`, and the user's `mcp__<server>__*` rules
 * grant by that prefix. So the name may not contain the separator `__`, nor end in `_` (then
 * `<server>__` would read `<name>___`): either would put one server's tools under another's
 * prefix (`github__evil`, `github_` under `mcp__github__*`). With both refused, no server's
 * prefix starts with another's; a leading `_` cannot do that, so it stays allowed.
 */
const SERVER_NAME = /^(?!.*__)[A-Za-z0-9_-]{0,31}[A-Za-z0-9-]$/;
const SERVER_NAME_RULE = `needs a name of 1-32 letters, digits, '_' or '-', with no "__" and no '_' at the end: it becomes the "<server>" of each tool's name "mcp__<server>__<tool>", and those would let it pass for another server's tools`;
const PERMISSIONS = new Set(["allow", "ask", "deny"]);

const stringList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const stringMap = (v: unknown) =>
  !!v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");

/**
 * The servers of a configuration value: `{ mcpServers: { name: entry } }` as in `.mcp.json`, or
 * the map itself. Each entry is checked whole; `source` names the file in errors.
 */
export function parseServers(value: unknown, source: string): Record<string, McpServerConfig> {
  const map =
    value && typeof value === "object" && "mcpServers" in value ? (value as { mcpServers: unknown }).mcpServers : value;
  if (!map || typeof map !== "object" || Array.isArray(map))
    throw new McpConfigError(`${source}: expected { "mcpServers": { "<name>": { ... } } }`);
  const out: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(map)) {
    const bad = (why: string) => new McpConfigError(`${source}: server "${name}" ${why}`);
    if (!SERVER_NAME.test(name)) throw bad(SERVER_NAME_RULE);
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) throw bad("must be an object");
    const e = entry as Record<string, unknown>;
    if ((typeof e.command === "string") === (typeof e.url === "string"))
      throw bad('needs either "command" (stdio) or "url" (HTTP)');
    if (e.args !== undefined && !stringList(e.args)) throw bad('"args" must be a list of strings');
    if (e.env !== undefined && !stringMap(e.env)) throw bad('"env" must map names to strings');
    if (e.headers !== undefined && !stringMap(e.headers)) throw bad('"headers" must map names to strings');
    if (e.cwd !== undefined && typeof e.cwd !== "string") throw bad('"cwd" must be a string');
    if (e.optional !== undefined && typeof e.optional !== "boolean") throw bad('"optional" must be true or false');
    if (e.permission !== undefined && !PERMISSIONS.has(e.permission as string))
      throw bad('"permission" must be allow, ask or deny');
    if (e.timeoutSeconds !== undefined && !(typeof e.timeoutSeconds === "number" && e.timeoutSeconds > 0))
      throw bad('"timeoutSeconds" must be a positive number');
    if (typeof e.url === "string") {
      try {
        const url = new URL(e.url);
        if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
      } catch {
        throw bad(`has a url that is not http(s): ${JSON.stringify(e.url)}`);
      }
    }
    out[name] = e as unknown as McpServerConfig;
  }
  return out;
}

export function isStdio(config: McpServerConfig): config is McpStdioServer {
  return typeof (config as McpStdioServer).command === "string";
}

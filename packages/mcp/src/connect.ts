import { connectServer, type McpConnection } from "./connection.js";
import { McpConnectError } from "./errors.js";
import { McpExtension } from "./mcp-extension.js";
import type { DiscoveredMcpServer } from "@harnessx/core/extension";
import { parseServers, type McpServerConfig } from "./server-config.js";

/** What `connectMcpServers` connects to; a name in `servers` wins over the same name in `discovered`. */
export interface ConnectMcpOptions {
  /** Servers by name, as in `.mcp.json`'s `mcpServers`. */
  servers?: Record<string, McpServerConfig>;
  /** What `discover()` found in the user's and a trusted project's configuration files (`mcpServers`). */
  discovered?: Record<string, DiscoveredMcpServer>;
  /** Where stdio servers start when their entry names no `cwd`. Default `process.cwd()`. */
  cwd?: string;
}

/**
 * Connects to every server (in parallel) before the agent is composed: discovery over the
 * network is its own async step, and the extension it returns declares what was found. A server
 * that cannot start or fails the handshake rejects with `McpConnectError` naming it (and closes
 * the others); one marked `optional` is skipped and reported when the session starts.
 */
export async function connectMcpServers(options: ConnectMcpOptions): Promise<McpExtension> {
  const servers = parseServers(options.servers ?? {}, "connectMcpServers");
  for (const [name, found] of Object.entries(options.discovered ?? {})) {
    if (name in servers) continue;
    Object.assign(servers, parseServers({ [name]: found.config }, found.source));
  }
  const cwd = options.cwd ?? process.cwd();
  const outcomes = await Promise.allSettled(
    Object.entries(servers).map(([name, config]) => connectServer(name, config, cwd)),
  );
  const connections: McpConnection[] = [];
  const skipped: McpConnectError[] = [];
  let failure: unknown;
  Object.values(servers).forEach((config, i) => {
    const outcome = outcomes[i];
    if (outcome.status === "fulfilled") connections.push(outcome.value);
    else if (config.optional) skipped.push(outcome.reason as McpConnectError);
    else failure ??= outcome.reason;
  });
  if (failure !== undefined) {
    await Promise.all(connections.map((c) => c.close()));
    throw failure instanceof McpConnectError ? failure : new McpConnectError("?", String(failure));
  }
  try {
    return new McpExtension(connections, skipped);
  } catch (error) {
    await Promise.all(connections.map((c) => c.close()));
    throw error;
  }
}

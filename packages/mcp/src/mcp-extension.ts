import { createHash } from "node:crypto";
import { tool, type Tool } from "@harnessx/core";
import {
  contribution,
  Extension,
  MCP_EXTENSION,
  packageVersion,
  type ExtensionContext,
  type ExtensionContribution,
} from "@harnessx/core/extension";
import type { McpConnection } from "./connection.js";
import { McpConnectError } from "./errors.js";
import { promptArguments, promptText } from "./mcp-prompts.js";
import { toolsOf } from "./mcp-tools.js";
import { mcpPromptCommand } from "./tool-name.js";

/** What the `mcp.connected` event says of one server: its handshake, and a digest of the tools it listed. */
export interface McpConnectedData {
  /** The server's name in the configuration (the `<server>` of `mcp__<server>__<tool>`). */
  server: string;
  /** How it was reached: a child process, streamable HTTP, or the older SSE transport. */
  transport: "stdio" | "http" | "sse";
  /** Name the server reported in its handshake (the configured name when it reported none). */
  serverName: string;
  /** Version the server reported in its handshake, or `"unknown"`. */
  serverVersion: string;
  /** Names of its tools as the server listed them (without the `mcp__<server>__` prefix). */
  tools: string[];
  /** sha256 of the tool list as the server sent it (names, descriptions, schemas): a changed server shows. */
  toolsSha256: string;
}

declare module "@harnessx/core/extension" {
  interface CustomEvents {
    /** Emitted by `McpExtension` at the session's start, once per connected server. */
    "mcp.connected": McpConnectedData;
  }
}

/** A connected server as the agent's observers and recordings describe it. */
export interface McpServerInfo {
  /** The server's name in the configuration. */
  name: string;
  /** How it was reached: a child process, streamable HTTP, or the older SSE transport. */
  transport: "stdio" | "http" | "sse";
  /** What the server reported in its handshake. */
  server: {
    /** Its own name (the configured name when it reported none). */
    name: string;
    /** Its version, or `"unknown"`. */
    version: string;
  };
  /** Names of its tools as the server listed them (without the `mcp__<server>__` prefix). */
  tools: string[];
  /** Names of its prompts, each available as the command `/mcp__<server>__<prompt>`. */
  prompts: string[];
  /** How many resources it listed (readable with the `read_mcp_resource` tool). */
  resources: number;
}

/**
 * The MCP servers of an agent as one extension: each server's tools as `mcp__<server>__<tool>`
 * (declared, so they pass the same permission gate as every tool), its prompts as slash
 * commands `/mcp__<server>__<prompt>`, its resources through `read_mcp_resource`. Servers that
 * were optional and could not be reached are reported as `ERROR` events at the session's start.
 * `agent.close()` closes every client (and ends every server process).
 */
export class McpExtension extends Extension {
  readonly name = MCP_EXTENSION;
  override readonly version = packageVersion(import.meta.url);
  private readonly tools: Tool[];

  constructor(
    private readonly connections: readonly McpConnection[],
    private readonly skipped: readonly McpConnectError[] = [],
  ) {
    super();
    this.tools = connections.flatMap(toolsOf);
    const byName = new Map<string, string>();
    for (const t of this.tools) {
      const other = byName.get(t.name);
      if (other)
        throw new McpConnectError(
          other,
          `two tools are both named ${t.name} (names are cut to 64 characters); rename the server shorter`,
        );
      byName.set(t.name, t.description);
    }
    if (connections.some((c) => c.resources.length > 0)) this.tools.push(this.resourceTool());
  }

  /** The connected servers: what each said of itself and offers. */
  get servers(): McpServerInfo[] {
    return this.connections.map((c) => ({
      name: c.name,
      transport: c.transport,
      server: c.server,
      tools: c.tools.map((t) => t.name),
      prompts: c.prompts.map((p) => p.name),
      resources: c.resources.length,
    }));
  }

  override contribute(): ExtensionContribution {
    return contribution(this, { tools: this.tools });
  }

  override install(ctx: ExtensionContext): void {
    if (this.connections.length) ctx.addRunAttributes({ "mcp.servers": this.connections.map((c) => c.name) });
    for (const connection of this.connections) {
      for (const prompt of connection.prompts) {
        ctx.registerCommand(mcpPromptCommand(connection.name, prompt.name), {
          description: `${prompt.description ?? prompt.name} (MCP server "${connection.name}", prompt "${prompt.name}")`,
          handler: async (args) =>
            promptText(
              await connection.client.getPrompt({ name: prompt.name, arguments: promptArguments(prompt, args) }),
            ),
        });
      }
    }
  }

  override async onSessionStart(ctx: ExtensionContext): Promise<void> {
    for (const c of this.connections) {
      const toolsSha256 = createHash("sha256").update(JSON.stringify(c.tools)).digest("hex");
      await ctx.emit("mcp.connected", {
        server: c.name,
        transport: c.transport,
        serverName: c.server.name,
        serverVersion: c.server.version,
        tools: c.tools.map((t) => t.name),
        toolsSha256,
      });
    }
    for (const error of this.skipped) await ctx.reportError(error);
  }

  override async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  private resourceTool(): Tool {
    const servers = new Map(this.connections.filter((c) => c.resources.length > 0).map((c) => [c.name, c]));
    return tool({
      name: "read_mcp_resource",
      description: `Reads a resource of an MCP server by its URI. Servers and their resources: ${[...servers.values()]
        .map(
          (c) =>
            `${c.name} (${c.resources
              .slice(0, 20)
              .map((r) => r.uri)
              .join(", ")})`,
        )
        .join("; ")}.`,
      inputSchema: {
        type: "object",
        properties: { server: { type: "string", enum: [...servers.keys()] }, uri: { type: "string" } },
        required: ["server", "uri"],
        additionalProperties: false,
      },
      replayPolicy: "recorded",
      async execute({ server, uri }) {
        const connection = servers.get(String(server))!;
        const answer = await connection.client.readResource({ uri: String(uri) }).catch((error: Error) => {
          throw new Error(`MCP server "${String(server)}" could not read ${String(uri)}: ${error.message}`);
        });
        return answer.contents
          .map((c) =>
            "text" in c && typeof c.text === "string"
              ? c.text
              : `[${c.uri}${c.mimeType ? ` (${c.mimeType})` : ""}, binary]`,
          )
          .join("\n");
      },
    });
  }
}

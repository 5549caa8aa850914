import {
  CallToolResultSchema,
  McpError,
  type CallToolResult,
  type CompatibilityCallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { tool, type Tool } from "@harnessx/core";
import { resultText } from "./call-result.js";
import type { McpConnection } from "./connection.js";
import { mcpToolName } from "./tool-name.js";

const DEFAULT_TIMEOUT_SECONDS = 60;

/**
 * What each `execute_tool` span of a server's tools carries, after the OpenTelemetry MCP
 * conventions: the method, the session (HTTP), the transport (`pipe` for stdio, `tcp` for
 * HTTP) and the server's address; `mcp.server.name` is harnessx's own, the configured name.
 */
export function mcpSpanAttributes(connection: McpConnection): Record<string, string | number> {
  const attributes: Record<string, string | number> = {
    "mcp.method.name": "tools/call",
    "mcp.server.name": connection.name,
    "network.transport": connection.transport === "stdio" ? "pipe" : "tcp",
  };
  const session = connection.sessionId();
  if (session) attributes["mcp.session.id"] = session;
  if (connection.transport !== "stdio" && "url" in connection.config) {
    const url = new URL(connection.config.url);
    attributes["server.address"] = url.hostname;
    attributes["server.port"] = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  }
  return attributes;
}

/**
 * The harnessx tools of one connected server, their callables bound to it now (a later
 * connection can never re-point an advertised tool). Each checks its input against the server's
 * JSON Schema before sending; an `isError` result, a protocol error, a timeout or a server that
 * died is an error result naming the server. The run's abort signal cancels the request (the
 * SDK sends the MCP cancel notification).
 */
export function toolsOf(connection: McpConnection): Tool[] {
  const { name: server, client, config } = connection;
  const timeout = (config.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  const spanAttributes = mcpSpanAttributes(connection);
  return connection.tools.map((listed) =>
    tool({
      name: mcpToolName(server, listed.name),
      description: `${listed.description ?? listed.title ?? listed.name} (MCP server "${server}", tool "${listed.name}")`,
      inputSchema: { ...listed.inputSchema, type: "object" },
      ...(config.permission ? { permission: config.permission } : {}),
      replayPolicy: "recorded",
      spanAttributes,
      async execute(input, { signal }) {
        let result: CallToolResult | CompatibilityCallToolResult;
        try {
          result = await client.callTool({ name: listed.name, arguments: input }, CallToolResultSchema, {
            signal,
            timeout,
          });
        } catch (error) {
          const reason = error instanceof McpError ? error.message : (error as Error).message;
          throw new Error(
            `MCP server "${server}" failed the call to "${listed.name}": ${reason}${connection.stderr().trim() ? ` (stderr: ${connection.stderr().trim().slice(-300)})` : ""}`,
          );
        }
        // Servers of the 2024-10 protocol may answer `{ toolResult }` instead of content blocks.
        const text =
          "content" in result && Array.isArray(result.content)
            ? resultText(result as CallToolResult)
            : JSON.stringify((result as { toolResult?: unknown }).toolResult ?? null);
        if (result.isError === true)
          throw new Error(`MCP server "${server}", tool "${listed.name}": ${text || "error"}`);
        return text;
      },
    }),
  );
}

import { CallToolResultSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { tool, type Tool } from "@harnessx/core";
import { resultText } from "./call-result.js";
import type { McpConnection } from "./connection.js";
import { mcpToolName } from "./tool-name.js";

const DEFAULT_TIMEOUT_SECONDS = 60;

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
  return connection.tools.map((listed) =>
    tool({
      name: mcpToolName(server, listed.name),
      description: `${listed.description ?? listed.title ?? listed.name} (MCP server "${server}", tool "${listed.name}")`,
      inputSchema: { ...listed.inputSchema, type: "object" },
      ...(config.permission ? { permission: config.permission } : {}),
      replayPolicy: "recorded",
      async execute(input, { signal }) {
        let result;
        try {
          result = await client.callTool({ name: listed.name, arguments: input }, CallToolResultSchema, { signal, timeout });
        } catch (error) {
          const reason = error instanceof McpError ? error.message : (error as Error).message;
          throw new Error(`MCP server "${server}" failed the call to "${listed.name}": ${reason}${connection.stderr().trim() ? ` (stderr: ${connection.stderr().trim().slice(-300)})` : ""}`);
        }
        // Servers of the 2024-10 protocol may answer `{ toolResult }` instead of content blocks.
        const text = "content" in result && Array.isArray(result.content) ? resultText(result as CallToolResult) : JSON.stringify((result as { toolResult?: unknown }).toolResult ?? null);
        if (result.isError === true) throw new Error(`MCP server "${server}", tool "${listed.name}": ${text || "error"}`);
        return text;
      },
    }),
  );
}

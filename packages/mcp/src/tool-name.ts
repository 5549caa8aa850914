import { MCP_TOOL_PREFIX } from "@harnessx/core/extension";

/** The harnessx name of a server's tool: `mcp__<server>__<tool>`, cut to the 64 characters providers accept. */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 64);
}

/** The slash command of a server's prompt: `/mcp__<server>__<prompt>`. */
export function mcpPromptCommand(server: string, prompt: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${prompt.replace(/[^A-Za-z0-9_.:-]/g, "_")}`.slice(0, 64);
}

import { HarnessError } from "@harnessx/core";

/** An MCP server could not be started, reached or initialized, or its configuration is wrong. */
export class McpConnectError extends HarnessError {
  /** Name of the server as configured (`"?"` when the failure could not be tied to one). */
  readonly server: string;
  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super("mcp_connect", `MCP server "${server}": ${message}`, options);
    this.server = server;
  }
}

/** A configuration file or value that does not describe MCP servers. */
export class McpConfigError extends HarnessError {
  constructor(message: string) {
    super("mcp_config", message);
  }
}

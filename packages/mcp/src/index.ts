export { connectMcpServers, type ConnectMcpOptions } from "./connect.js";
export { McpExtension, type McpConnectedData, type McpServerInfo } from "./mcp-extension.js";
export { McpConnectError, McpConfigError } from "./errors.js";
export { parseServers, type McpHttpServer, type McpServerConfig, type McpStdioServer } from "./server-config.js";
export { mcpPromptCommand, mcpToolName } from "./tool-name.js";

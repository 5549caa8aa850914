/**
 * An MCP server entry as a configuration file wrote it (checked when connecting), with where it
 * came from: what discovery finds and what `@harnessx/mcp` connects, the one shape both share.
 */
export interface DiscoveredMcpServer {
  /** The entry under `mcpServers` as written, not yet checked. */
  readonly config: unknown;
  /** The configuration file that defined it. */
  readonly source: string;
  /** The trust level of that file. */
  readonly level: "user" | "project";
}

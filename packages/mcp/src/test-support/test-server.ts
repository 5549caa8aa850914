import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** What a test server saw: calls it finished and calls its client cancelled. */
export interface ServerLog {
  cancelled: number;
}

/**
 * A small MCP server written with the official SDK, the same over stdio and HTTP: tools `echo`,
 * `add`, `fail` (an `isError` result), `slow` (runs until cancelled), `crash` (its process exits
 * mid-call) and `cancellations`; a prompt `review` (argument `file`); a resource `notes://today`.
 */
export function testServer(name: string, log: ServerLog = { cancelled: 0 }): McpServer {
  const server = new McpServer({ name, version: "1.2.3" });
  server.registerTool(
    "echo",
    { description: "Echoes its text.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }),
  );
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool("fail", { description: "Always refuses." }, async () => ({
    isError: true,
    content: [{ type: "text", text: "the backend refused" }],
  }));
  server.registerTool(
    "slow",
    { description: "Waits until it is cancelled." },
    async (extra) =>
      new Promise((resolve) => {
        extra.signal.addEventListener("abort", () => {
          log.cancelled++;
          resolve({ content: [{ type: "text", text: "cancelled" }] });
        });
      }),
  );
  server.registerTool("crash", { description: "Ends its server process mid-call." }, async () => {
    setTimeout(() => process.exit(3), 10);
    return new Promise(() => undefined);
  });
  server.registerTool("cancellations", { description: "How many calls were cancelled." }, async () => ({
    content: [{ type: "text", text: String(log.cancelled) }],
  }));
  server.registerPrompt("review", { description: "Review a file.", argsSchema: { file: z.string() } }, ({ file }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Review ${file} for bugs.` } }],
  }));
  server.registerResource(
    "today",
    "notes://today",
    { description: "Today's notes", mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, text: "buy milk" }] }),
  );
  return server;
}

// A test MCP server over stdio: `node --import tsx stdio-server.ts [name]`.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { testServer } from "./test-server.js";

const server = testServer(process.argv[2] ?? "files");
await server.connect(new StdioServerTransport());

import { fileURLToPath } from "node:url";

export { startHttpServer } from "./http-server.js";
export { testServer, type ServerLog } from "./test-server.js";

/** The stdio test server as a `.mcp.json` entry: started with this Node and tsx. */
export function stdioServerEntry(name = "files"): { command: string; args: string[]; cwd: string } {
  return {
    command: process.execPath,
    args: ["--import", "tsx", fileURLToPath(new URL("./stdio-server.ts", import.meta.url)), name],
    cwd: fileURLToPath(new URL("../../../..", import.meta.url)),
  };
}

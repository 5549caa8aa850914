import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Prompt, Resource, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { packageVersion } from "@harnessx/core/extension";
import { McpConnectError } from "./errors.js";
import { isStdio, type McpServerConfig } from "./server-config.js";

/** Time allowed to start, initialize and list one server. */
const CONNECT_TIMEOUT_MS = 30_000;
/** Characters of a stdio server's stderr kept to explain why it failed. */
const STDERR_TAIL = 2_000;
/** Pages of a listing read at most (a server that never ends its cursor must not hang the agent). */
const MAX_PAGES = 100;

/** One connected server: its client, what it said of itself, and what it offers. */
export interface McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly client: Client;
  readonly transport: "stdio" | "http" | "sse";
  readonly server: { name: string; version: string };
  readonly tools: McpTool[];
  readonly prompts: Prompt[];
  readonly resources: Resource[];
  /** The HTTP session, when the server keeps one. */
  sessionId(): string | undefined;
  /** What the server wrote to stderr lately (stdio), for error messages. */
  stderr(): string;
  close(): Promise<void>;
}

/** Every page of a paginated listing. */
async function allPages<T>(
  list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await list(cursor);
    items.push(...answer.items);
    if (!answer.nextCursor) return items;
    cursor = answer.nextCursor;
  }
  return items;
}

function newClient(): Client {
  return new Client({ name: "harnessx", version: packageVersion(import.meta.url) });
}

/**
 * Connects to one server: starts it (stdio) or reaches it (streamable HTTP, then SSE for old
 * servers), initializes, and lists its tools, prompts and resources. Any failure closes what was
 * opened and is a `McpConnectError` naming the server (with the end of its stderr, for stdio).
 */
export async function connectServer(name: string, config: McpServerConfig, cwd: string): Promise<McpConnection> {
  let stderr = "";
  let client = newClient();
  let kind: McpConnection["transport"];
  let http: StreamableHTTPClientTransport | undefined;
  const fail = (error: unknown): never => {
    const detail = stderr.trim() ? `; its stderr ends with: ${stderr.trim().slice(-500)}` : "";
    throw new McpConnectError(name, `${(error as Error).message}${detail}`, { cause: error });
  };
  const withTimeout = { timeout: CONNECT_TIMEOUT_MS };
  try {
    if (isStdio(config)) {
      kind = "stdio";
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...config.env },
        cwd: config.cwd ?? cwd,
        stderr: "pipe",
      });
      transport.stderr?.on(
        "data",
        (chunk: Buffer) => void (stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL)),
      );
      await client.connect(transport, withTimeout).catch(fail);
    } else {
      kind = "http";
      const url = new URL(config.url);
      const requestInit = config.headers ? { headers: config.headers } : undefined;
      http = new StreamableHTTPClientTransport(url, { requestInit });
      try {
        await client.connect(http, withTimeout);
      } catch (error) {
        // Servers older than streamable HTTP speak SSE on the same URL.
        await client.close().catch(() => undefined);
        client = newClient();
        http = undefined;
        kind = "sse";
        await client
          .connect(new SSEClientTransport(url, { requestInit }) as Transport, withTimeout)
          .catch(() => fail(error));
      }
    }
    const capabilities = client.getServerCapabilities() ?? {};
    const tools = capabilities.tools
      ? await allPages(async (cursor) => {
          const r = await client.listTools(cursor ? { cursor } : {}, withTimeout);
          return { items: r.tools, nextCursor: r.nextCursor };
        })
      : [];
    const prompts = capabilities.prompts
      ? await allPages(async (cursor) => {
          const r = await client.listPrompts(cursor ? { cursor } : {}, withTimeout);
          return { items: r.prompts, nextCursor: r.nextCursor };
        })
      : [];
    const resources = capabilities.resources
      ? await allPages(async (cursor) => {
          const r = await client.listResources(cursor ? { cursor } : {}, withTimeout);
          return { items: r.resources, nextCursor: r.nextCursor };
        })
      : [];
    const info = client.getServerVersion();
    const transport = http;
    return {
      name,
      config,
      client,
      transport: kind,
      server: { name: info?.name ?? name, version: info?.version ?? "unknown" },
      tools,
      prompts,
      resources,
      sessionId: () => transport?.sessionId,
      stderr: () => stderr,
      close: () => client.close().catch(() => undefined),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    if (error instanceof McpConnectError) throw error;
    return fail(error);
  }
}

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export type LangSmithMode = "ok" | "batch_only" | "status_500" | "status_429" | "hang";

/** A run as the server assembled it from creates and updates. */
export type StoredRun = Record<string, unknown> & {
  id: string;
  name: string;
  run_type: string;
  parent_run_id?: string;
  trace_id: string;
  dotted_order: string;
};

export interface LangSmithServer {
  url: string;
  runs: Map<string, StoredRun>;
  /** Paths of requests received, in order. */
  paths: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
}

function merge(runs: Map<string, StoredRun>, id: string, fields: Record<string, unknown>): void {
  const run = runs.get(id) ?? ({ id } as StoredRun);
  for (const [k, v] of Object.entries(fields))
    if (v !== undefined && v !== null) (run as Record<string, unknown>)[k] = v;
  runs.set(id, run);
}

/**
 * The endpoints the langsmith SDK uses for tracing: `GET /info`, `POST
 * /runs/multipart` (parts `post.<id>`, `patch.<id>`, `post.<id>.inputs`, ...)
 * and `POST /runs/batch` (`{ post, patch }`), its fallback when multipart is missing.
 */
export async function startLangSmithServer(mode: LangSmithMode = "ok"): Promise<LangSmithServer> {
  const runs = new Map<string, StoredRun>();
  const paths: string[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    paths.push(`${req.method} ${path}`);
    const body = await readBody(req);
    if (req.method === "GET" && path === "/info") {
      return void res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          version: "0.10.0",
          batch_ingest_config: {
            use_multipart_endpoint: mode !== "batch_only",
            size_limit_bytes: 20_971_520,
            size_limit: 100,
            scale_up_nthreads_limit: 16,
            scale_up_qsize_trigger: 1000,
            scale_down_nempty_trigger: 4,
          },
          instance_flags: {},
        }),
      );
    }
    if (mode === "hang") {
      hanging.add(() => res.destroy());
      return;
    }
    if (mode === "status_500") return void res.writeHead(500).end("{}");
    if (mode === "status_429") return void res.writeHead(429, { "retry-after": "3" }).end("{}");
    if (req.method === "POST" && path === "/runs/multipart" && mode !== "batch_only") {
      const form = await new Response(body, {
        headers: { "content-type": req.headers["content-type"] ?? "" },
      }).formData();
      for (const [name, value] of form) {
        const [, id, field] = /^(?:post|patch)\.([^.]+)(?:\.(.+))?$/.exec(name) ?? [];
        if (!id) continue;
        const json = JSON.parse(typeof value === "string" ? value : await value.text()) as unknown;
        merge(runs, id, field ? { [field]: json } : (json as Record<string, unknown>));
      }
      return void res.writeHead(202, { "content-type": "application/json" }).end("{}");
    }
    if (req.method === "POST" && path === "/runs/batch") {
      const batch = JSON.parse(body.toString("utf8")) as {
        post?: Array<Record<string, unknown> & { id: string }>;
        patch?: Array<Record<string, unknown> & { id: string }>;
      };
      for (const r of [...(batch.post ?? []), ...(batch.patch ?? [])]) merge(runs, r.id, r);
      return void res.writeHead(200, { "content-type": "application/json" }).end("{}");
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not Found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runs,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of hanging) end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

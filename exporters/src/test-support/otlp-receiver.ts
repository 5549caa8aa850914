import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { parseOtlpJson, type OtlpSpan } from "../convert/otlp-json.js";

export type ReceiverMode = "ok" | "status_500" | "status_429" | "hang";

export interface OtlpReceiver {
  url: string;
  /** Spans decoded from every accepted request. */
  spans: OtlpSpan[];
  /** Raw JSON bodies received (accepted or not). */
  bodies: string[];
  requests: number;
  /** Headers of every request, in order. */
  headers: Array<Record<string, string | string[] | undefined>>;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
}

/** A local OTLP/HTTP traces endpoint that decodes the JSON payloads it receives (or fails on purpose). */
export async function startOtlpReceiver(mode: ReceiverMode = "ok"): Promise<OtlpReceiver> {
  const state = { spans: [] as OtlpSpan[], bodies: [] as string[], requests: 0, headers: [] as Array<Record<string, string | string[] | undefined>> };
  const hanging = new Set<() => void>();
  const server: Server = createServer(async (req, res) => {
    state.requests++;
    state.headers.push(req.headers);
    const text = (await body(req)).toString("utf8");
    state.bodies.push(text);
    if (mode === "hang") {
      hanging.add(() => res.destroy());
      return;
    }
    if (mode === "status_500") return void res.writeHead(500).end("boom");
    if (mode === "status_429") return void res.writeHead(429, { "retry-after": "30" }).end("slow down");
    if (req.headers["content-type"]?.includes("json")) state.spans.push(...parseOtlpJson(text));
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    get spans() {
      return state.spans;
    },
    get bodies() {
      return state.bodies;
    },
    get requests() {
      return state.requests;
    },
    get headers() {
      return state.headers;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of hanging) end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on which nothing listens (connections are refused). */
export async function refusedUrl(path = "/v1/traces"): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}

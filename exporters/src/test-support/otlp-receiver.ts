import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { parseOtlpJson, readAttributes, type OtlpSpan } from "../convert/otlp-json.js";
import { otlpProtobufToJson } from "./otlp-protobuf.js";

export type ReceiverMode = "ok" | "status_500" | "status_429" | "hang";

/** One scripted answer: the receiver gives these, in order, to its first requests, then 200. */
export interface ReceiverAnswer {
  status: number;
  /** The `Retry-After` header to send with it (seconds or an HTTP date), if any. */
  retryAfter?: string;
}

/** What the receiver saw of one request and how it answered. */
export interface ReceivedRequest {
  /** `performance.now()` when the request arrived, to compare with the next one's. */
  atMs: number;
  contentType?: string;
  contentEncoding?: string;
  /** The status it was answered with (a hung request: 0). */
  status: number;
}

export interface OtlpReceiver {
  url: string;
  /** Spans decoded from every accepted request, JSON or protobuf. */
  spans: OtlpSpan[];
  /** Resource attributes of every `ResourceSpans` of every accepted request. */
  resources: Array<Record<string, unknown>>;
  /** Raw bodies received (accepted or not), decompressed, as UTF-8 text. */
  bodies: string[];
  requests: number;
  /** Every request, in order of arrival. */
  received: ReceivedRequest[];
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

/** The request body as a Collector's OTLP/HTTP receiver reads it: JSON, or protobuf by its Content-Type. */
function otlpDocument(
  contentType: string | undefined,
  raw: Buffer,
): { resourceSpans?: Array<{ resource?: { attributes?: Parameters<typeof readAttributes>[0] } }> } {
  return contentType?.includes("protobuf")
    ? (otlpProtobufToJson(raw) as ReturnType<typeof otlpDocument>)
    : JSON.parse(raw.toString("utf8"));
}

/** The answer to the request at `index` (0-based); undefined: accept it. */
function answersOf(mode: ReceiverMode | { answers: ReceiverAnswer[] }): (index: number) => ReceiverAnswer | undefined {
  if (typeof mode === "object") return (index) => mode.answers[index];
  if (mode === "status_500") return () => ({ status: 500 });
  if (mode === "status_429") return () => ({ status: 429, retryAfter: "30" });
  return () => undefined;
}

/**
 * A local OTLP/HTTP traces endpoint that decodes what it receives (JSON or protobuf, gzip or not)
 * and answers 200, or fails on purpose: a `mode`, or scripted `answers` for its first requests.
 */
export async function startOtlpReceiver(
  mode: ReceiverMode | { answers: ReceiverAnswer[] } = "ok",
): Promise<OtlpReceiver> {
  const state = {
    spans: [] as OtlpSpan[],
    resources: [] as Array<Record<string, unknown>>,
    bodies: [] as string[],
    received: [] as ReceivedRequest[],
    headers: [] as Array<Record<string, string | string[] | undefined>>,
  };
  const answerTo = answersOf(mode);
  const hanging = new Set<() => void>();
  const server: Server = createServer(async (req, res) => {
    const index = state.received.length;
    const seen: ReceivedRequest = {
      atMs: performance.now(),
      contentType: req.headers["content-type"],
      contentEncoding: req.headers["content-encoding"],
      status: 0,
    };
    state.received.push(seen);
    state.headers.push(req.headers);
    let raw: Buffer;
    try {
      raw = await body(req);
    } catch (error) {
      seen.status = 400;
      return void res.writeHead(400).end(`unreadable body: ${(error as Error).message}`);
    }
    state.bodies.push(raw.toString("utf8"));
    if (mode === "hang") {
      hanging.add(() => res.destroy());
      return;
    }
    const answer = answerTo(index);
    if (answer && (answer.status < 200 || answer.status >= 300)) {
      seen.status = answer.status;
      return void res
        .writeHead(answer.status, answer.retryAfter ? { "retry-after": answer.retryAfter } : {})
        .end("refused on purpose");
    }
    let document: ReturnType<typeof otlpDocument>;
    try {
      document = otlpDocument(req.headers["content-type"], raw);
    } catch (error) {
      seen.status = 400;
      return void res.writeHead(400).end(`unreadable OTLP body: ${(error as Error).message}`);
    }
    state.spans.push(...parseOtlpJson(JSON.stringify(document)));
    state.resources.push(...(document.resourceSpans ?? []).map((rs) => readAttributes(rs.resource?.attributes)));
    seen.status = 200;
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    get spans() {
      return state.spans;
    },
    get resources() {
      return state.resources;
    },
    get bodies() {
      return state.bodies;
    },
    get requests() {
      return state.received.length;
    },
    get received() {
      return state.received;
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

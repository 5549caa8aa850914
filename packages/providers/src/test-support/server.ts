import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the fake server received it; `raw` is the exact body text. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The parsed JSON body; one that was empty or not JSON reads as an empty conversation. */
  body: WireBody;
}

/** A JSON request body as an SDK sent it: the fields tests read are typed, the rest stay unknown. */
export interface WireBody {
  readonly [field: string]: unknown;
  messages: WireMessage[];
  model?: string;
  system?: string | WireBlock[];
  tools?: WireBlock[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
}

/** One message of a {@link WireBody}. */
export interface WireMessage {
  readonly [field: string]: unknown;
  role: string;
  content: string | WireBlock[] | null;
}

/** One content block, tool or system block of a {@link WireBody}. */
export interface WireBlock {
  readonly [field: string]: unknown;
  cache_control?: unknown;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** A whole body, written at once. */
  body?: string;
  /** Server-sent events, each written (and flushed) on its own. */
  events?: string[];
  /** Wait this long before answering (to test cancellation). */
  delayMs?: number;
  /** Leave the event stream open after the last event, as a stalled server would. */
  keepOpen?: boolean;
}

export type Responder = FakeReply | ((request: RecordedRequest) => FakeReply);

/**
 * An HTTP server on 127.0.0.1 (port 0) answering queued replies in order and
 * recording every request. With nothing queued it answers 500 naming the problem.
 */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Responder[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeServer> {
    let self: FakeServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        let body: WireBody = { messages: [] };
        try {
          if (raw) body = JSON.parse(raw) as WireBody;
        } catch {
          // Not JSON: the assertions on `raw` say what was sent.
        }
        const recorded: RecordedRequest = {
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          raw,
          body,
        };
        self!.requests.push(recorded);
        const next = self!.queue.shift();
        const reply: FakeReply =
          next === undefined
            ? {
                status: 500,
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ error: { message: "fake server: no reply queued" } }),
              }
            : typeof next === "function"
              ? next(recorded)
              : next;
        const timer = setTimeout(() => void send(res, reply), reply.delayMs ?? 0);
        res.on("close", () => clearTimeout(timer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    self = new FakeServer(server, `http://127.0.0.1:${port}`);
    return self;
  }

  /** Queues replies, answered one per request in order. */
  reply(...responders: Responder[]): this {
    this.queue.push(...responders);
    return this;
  }

  /** Replies queued but not yet asked for. */
  get pending(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function send(res: import("node:http").ServerResponse, reply: FakeReply): Promise<void> {
  if (res.destroyed) return;
  const headers = {
    ...(reply.events ? { "content-type": "text/event-stream", "cache-control": "no-cache" } : {}),
    ...reply.headers,
  };
  res.writeHead(reply.status ?? 200, headers);
  if (!reply.events) {
    res.end(reply.body ?? "");
    return;
  }
  for (const event of reply.events) {
    if (res.destroyed) return;
    res.write(event);
    // Let each event leave as its own chunk, as a real server's would.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!reply.keepOpen) res.end();
}

/** A JSON reply with the given status. */
export function jsonReply(value: unknown, status = 200, headers: Record<string, string> = {}): FakeReply {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

/** Splits text into pieces of `size` characters (the way a model streams it). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

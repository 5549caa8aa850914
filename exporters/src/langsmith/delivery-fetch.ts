import { isRetryableNetworkError, pause, retryAfterMs } from "../util/retry.js";
import type { DeliveryLedger } from "./ledger.js";

/** Options of `ledgerFetch`. */
export interface LedgerFetchOptions {
  /** The fetch that reaches the network. Default the global one. */
  inner?: typeof fetch;
  /** Aborting it ends every upload at once; from then on the client is answered without the network. */
  stop: AbortSignal;
  /** Further attempts after a retryable failure (408, 425, 429, 5xx, a broken connection). Default 2. */
  retries?: number;
}

/** The statuses the langsmith SDK itself retries. */
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
const FIRST_BACKOFF_MS = 500;

/**
 * The fetch of a client the exporters build. The SDK prints every upload that fails (and, after
 * close, every aborted one) to stderr; here losses are counted by the ledger and reported as
 * events instead, so its tracing requests are answered to the SDK as handled:
 * - `/runs/multipart` and `/runs/batch` are sent (retried here, within the request's time limit);
 *   accepted runs are credited to `ledger`, and an upload that gives up is answered `202` locally,
 *   its runs left pending, so the ledger counts them lost. A `404` from `/runs/multipart` passes
 *   through: the SDK then sends the same runs to `/runs/batch`.
 * - `GET /info` that fails or answers nonsense is answered `{}`: the SDK's defaults, without a warning.
 * - After `stop`, both are answered locally without any request.
 * Any other request passes through untouched (rejected after `stop`).
 */
export function ledgerFetch(ledger: DeliveryLedger, options: LedgerFetchOptions): typeof fetch {
  const inner = options.inner ?? fetch;
  const retries = options.retries ?? 2;
  const { stop } = options;
  return async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const signal = init?.signal ? AbortSignal.any([init.signal, stop]) : stop;
    const ingest = init?.body != null && /\/runs\/(multipart|batch)$/.test(url.pathname);
    const info = (init?.method ?? "GET").toUpperCase() === "GET" && url.pathname.endsWith("/info");
    if (ingest) return stop.aborted ? handled() : deliver(inner, input, { ...init, signal }, url, ledger, retries);
    if (info) return stop.aborted ? Response.json({}) : serverInfo(inner, input, { ...init, signal });
    // "AbortError" is the prefix the SDK does not retry.
    if (stop.aborted) throw new Error("AbortError: the LangSmith exporter is closed");
    return inner(input, { ...init, signal });
  };
}

/** What the SDK is told about an upload the ledger now accounts for: nothing to retry, nothing to print. */
function handled(): Response {
  return Response.json({}, { status: 202 });
}

async function deliver(
  inner: typeof fetch,
  input: string | URL | Request,
  init: RequestInit & { signal: AbortSignal },
  url: URL,
  ledger: DeliveryLedger,
  retries: number,
): Promise<Response> {
  const body = new Uint8Array(await new Response(init.body).arrayBuffer());
  const where = `${url.origin}${url.pathname}`;
  for (let attempt = 0; ; attempt++) {
    let failure: string;
    let retryable: boolean;
    let wait = FIRST_BACKOFF_MS * 2 ** attempt;
    try {
      const response = await inner(input, { ...init, body });
      if (response.ok) {
        await ledger.accepted(url.pathname, body, new Headers(init.headers)).catch(() => {
          // An unreadable body cannot be credited: its runs stay pending and count as lost if never confirmed.
        });
        return response;
      }
      if (response.status === 404 && url.pathname.endsWith("/runs/multipart")) return response;
      await response.body?.cancel();
      failure = `HTTP ${response.status} from ${where}`;
      retryable = RETRYABLE_STATUS.has(response.status);
      wait = retryAfterMs(response.headers.get("retry-after")) ?? wait;
    } catch (error) {
      failure = `${describe(error)} (${where})`;
      retryable = !init.signal.aborted && isRetryableNetworkError(error);
    }
    if (!retryable || attempt >= retries || !(await pause(wait, init.signal))) {
      ledger.lastFailure = init.signal.aborted ? `no answer in time from ${where}` : failure;
      return handled();
    }
  }
}

async function serverInfo(inner: typeof fetch, input: string | URL | Request, init: RequestInit): Promise<Response> {
  try {
    const response = await inner(input, init);
    if (!response.ok) await response.body?.cancel();
    const info: unknown = response.ok ? await response.json() : undefined;
    if (info && typeof info === "object" && !Array.isArray(info)) return Response.json(info);
  } catch {
    // Unreachable, or not JSON: the defaults below serve as well.
  }
  return Response.json({});
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused";
  return String(cause?.message ?? (error instanceof Error ? error.message : error));
}

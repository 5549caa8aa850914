import { request as httpRequest, type Agent, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { gzipSync } from "node:zlib";
import { OTLPExporterError, type ExportResponse, type IExporterTransport } from "@opentelemetry/otlp-exporter-base";
import type { convertLegacyHttpOptions } from "@opentelemetry/otlp-exporter-base/node-http";
import { isRetryableNetworkError, pause, retryAfterMs } from "../util/retry.js";

/** Endpoint, headers, agent and compression as OpenTelemetry resolves them from options and `OTEL_EXPORTER_OTLP_*`. */
export type OtlpHttpConfig = ReturnType<typeof convertLegacyHttpOptions>;

// OpenTelemetry's own retry schedule: 1 s apart at first, ×1.5 each time (±20 %), at most 5 s, 5 retries.
const MAX_RETRIES = 5;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 5000;
const BACKOFF_FACTOR = 1.5;
/** The statuses OpenTelemetry's exporters retry. */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** Responses are only drained; an endless body must not hold the connection. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * OTLP/HTTP delivery whose every wait can be cut short: OpenTelemetry's transport keeps retrying
 * (timers and sockets that hold the process) after its caller gave up. Retries stay within the
 * export's time limit, and `abortInFlight()` ends every request and back-off at once.
 */
export class OtlpHttpTransport implements IExporterTransport {
  private stop = new AbortController();
  private agent: Promise<Agent> | undefined;

  constructor(private readonly config: OtlpHttpConfig) {}

  async send(data: Uint8Array, timeoutMillis: number): Promise<ExportResponse> {
    const deadline = Date.now() + timeoutMillis;
    const { signal } = this.stop;
    const body = this.config.compression === "gzip" ? gzipSync(data) : data;
    let backoff = FIRST_BACKOFF_MS;
    for (let retries = 0; ; retries++) {
      const response = await this.post(body, deadline - Date.now(), signal);
      if (response.status !== "retryable" || retries >= MAX_RETRIES) return response;
      const wait = response.retryInMillis ?? backoff * (0.8 + Math.random() * 0.4);
      backoff = Math.min(backoff * BACKOFF_FACTOR, MAX_BACKOFF_MS);
      if (wait > deadline - Date.now() || !(await pause(wait, signal))) return response;
    }
  }

  /** Ends every request and back-off in progress (they fail); later exports are sent as usual. */
  abortInFlight(): void {
    this.stop.abort(new OTLPExporterError("export abandoned: its spans were already counted lost"));
    this.stop = new AbortController();
  }

  shutdown(): void {
    this.abortInFlight();
    void this.agent?.then(
      (agent) => agent.destroy(),
      () => {},
    );
  }

  private async post(body: Uint8Array, timeoutMs: number, signal: AbortSignal): Promise<ExportResponse> {
    if (timeoutMs <= 0 || signal.aborted)
      return { status: "failure", error: new OTLPExporterError("export time limit reached") };
    const url = new URL(this.config.url);
    const agent = await (this.agent ??= Promise.resolve(this.config.agentFactory(url.protocol)));
    const headers: Record<string, string> = {
      ...(await this.config.headers()),
      "User-Agent": this.config.userAgent ?? "harnessx-exporters",
    };
    if (this.config.compression === "gzip") headers["Content-Encoding"] = "gzip";
    return new Promise((resolve) => {
      const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
        url,
        { method: "POST", headers, agent, signal },
        (res) => {
          let received = 0;
          res.on("data", (chunk: Buffer) => {
            received += chunk.length;
            if (received > MAX_RESPONSE_BYTES) res.destroy();
          });
          res.on("error", () => {});
          resolve(classify(res.statusCode ?? 0, res.statusMessage, res.headers));
        },
      );
      // A hard limit, not an idle one: a server dribbling bytes must not outlast the export.
      const timer = setTimeout(
        () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })),
        timeoutMs,
      );
      timer.unref();
      req.on("close", () => clearTimeout(timer));
      req.on("error", (error) => resolve({ status: isRetryableNetworkError(error) ? "retryable" : "failure", error }));
      req.end(body);
    });
  }
}

function classify(status: number, message: string | undefined, headers: IncomingHttpHeaders): ExportResponse {
  if (status >= 200 && status < 300) return { status: "success" };
  const error = new OTLPExporterError(`HTTP ${status} ${message ?? ""}`.trim(), status);
  if (!RETRYABLE_STATUS.has(status)) return { status: "failure", error };
  return { status: "retryable", error, retryInMillis: retryAfterMs(headers["retry-after"]) };
}

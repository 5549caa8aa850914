import { DEFAULT_MAX_CONTENT_CHARS, mapSpans, Redactor, SpanMapper, type MapSpansOptions, type TraceEvent, type TracedAgent } from "@harnessx/core";
import { ExportResultCode } from "@opentelemetry/core";
import type { ClientConfig } from "langsmith";
import { ExporterError } from "../errors.js";
import { hasLangSmithCredentials } from "../langsmith/credentials.js";
import { watchedClient } from "../langsmith/watched-client.js";
import { LangSmithSink } from "../langsmith/run-sink.js";
import { createOtlpExporter, type OtlpProtocol } from "../telemetry/otlp-exporter.js";
import { settleWithin } from "../util/time.js";
import { toReadableSpans } from "./readable.js";

export interface PushResult {
  /** Spans (OTLP) or runs (LangSmith) the endpoint accepted. */
  sent: number;
  failed: number;
}

export interface OtlpPushOptions extends MapSpansOptions {
  /** OTLP/HTTP traces URL (e.g. http://localhost:4318/v1/traces). Default: the `OTEL_EXPORTER_OTLP_*` variables. */
  url?: string;
  headers?: Record<string, string>;
  serviceName?: string;
  /** Time limit per request, retries included. Default 10 s. */
  timeoutMs?: number;
  /** Default: `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`, else "http/json". */
  protocol?: OtlpProtocol;
}

const BATCH = 512;

/** Sends a recording's spans to an OTLP/HTTP endpoint with OpenTelemetry's own exporter (JSON or protobuf). */
export async function pushToOtlp(events: readonly TraceEvent[], options: OtlpPushOptions = {}): Promise<PushResult> {
  const spans = mapSpans(events, options);
  const readable = toReadableSpans(spans, options.serviceName ?? "harnessx");
  const exporter = createOtlpExporter({ url: options.url, headers: options.headers, timeoutMs: options.timeoutMs ?? 10_000, protocol: options.protocol });
  const result: PushResult = { sent: 0, failed: 0 };
  try {
    for (let i = 0; i < readable.length; i += BATCH) {
      const batch = readable.slice(i, i + BATCH);
      const code = await new Promise<ExportResultCode>((resolve) => exporter.export(batch, (r) => resolve(r.code)));
      if (code === ExportResultCode.SUCCESS) result.sent += batch.length;
      else result.failed += batch.length;
    }
  } finally {
    await settleWithin(exporter.shutdown(), 1000);
  }
  return result;
}

export interface LangSmithPushOptions extends MapSpansOptions {
  /** Settings of the client built for the push (`apiUrl`, `apiKey`, ...); default the `LANGSMITH_*` variables. */
  clientConfig?: ClientConfig;
  /** Default `LANGSMITH_PROJECT`, else "harnessx". */
  projectName?: string;
  /** Longest wait for the upload. Default 30 s. */
  timeoutMs?: number;
}

/** Sends a recording's runs to LangSmith through the real `langsmith` Client; counts runs accepted and lost. */
export async function pushToLangSmith(events: readonly TraceEvent[], options: LangSmithPushOptions = {}): Promise<PushResult> {
  const config = options.clientConfig ?? {};
  if (!hasLangSmithCredentials(config)) throw new ExporterError("langsmith_credentials_missing", "LangSmith needs an API key: set LANGSMITH_API_KEY or pass clientConfig.apiKey; nothing was sent");
  const watched = watchedClient(config);
  const { client, ledger } = watched;
  const maxContentChars = options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
  const firstReply = events.find((e) => e.kind === "llm_response");
  const provider = options.agent?.provider ?? (firstReply?.kind === "llm_response" ? firstReply.data.provider : undefined);
  const info: TracedAgent = { name: options.agent?.name ?? "agent", ...(options.agent?.sessionId ? { sessionId: options.agent.sessionId } : {}), ...(provider ? { provider } : {}) };
  const sink = new LangSmithSink({ client, projectName: options.projectName ?? process.env.LANGSMITH_PROJECT ?? "harnessx", maxContentChars, ledger, redactor: options.redactor ?? new Redactor(), ...(info.sessionId ? { metadata: { thread_id: info.sessionId } } : {}) });
  const mapper = new SpanMapper(sink, info, { captureContent: false, maxContentChars });
  for (const e of events) mapper.handle(e);
  mapper.closeAll(events.length ? events[events.length - 1].ts : Date.now());
  await settleWithin(
    (async () => {
      while (sink.inFlight.size > 0) await Promise.all([...sink.inFlight]);
      await client.awaitPendingTraceBatches();
    })(),
    options.timeoutMs ?? 30_000,
  );
  watched.close();
  return { sent: ledger.deliveredRuns, failed: ledger.dropped };
}

import { Redactor } from "@harnessx/core/extension";
import {
  DEFAULT_MAX_CONTENT_CHARS,
  SpanMapper,
  type MapSpansOptions,
  type TraceEvent,
  type TracedAgent,
} from "@harnessx/core/tracing";
import type { ClientConfig } from "langsmith";
import { ExporterError } from "../errors.js";
import type { PushResult } from "../push-result.js";
import { settleWithin } from "../util/time.js";
import { hasLangSmithCredentials } from "./credentials.js";
import { LangSmithSink } from "./run-sink.js";
import { watchedClient } from "./watched-client.js";

/** Options of `pushToLangSmith`: the client, the project, and how the recording becomes runs. */
export interface LangSmithPushOptions extends MapSpansOptions {
  /** Settings of the client built for the push (`apiUrl`, `apiKey`, ...); default the `LANGSMITH_*` variables. */
  clientConfig?: ClientConfig;
  /** Default `LANGSMITH_PROJECT`, else "harnessx". */
  projectName?: string;
  /** Longest wait for the upload. Default 30 s. */
  timeoutMs?: number;
}

/** Sends a recording's runs to LangSmith through the real `langsmith` Client; counts runs accepted and lost. */
export async function pushToLangSmith(
  events: readonly TraceEvent[],
  options: LangSmithPushOptions = {},
): Promise<PushResult> {
  const config = options.clientConfig ?? {};
  if (!hasLangSmithCredentials(config))
    throw new ExporterError(
      "langsmith_credentials_missing",
      "LangSmith needs an API key: set LANGSMITH_API_KEY or pass clientConfig.apiKey; nothing was sent",
    );
  const watched = watchedClient(config);
  const { client, ledger } = watched;
  const maxContentChars = options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
  const firstReply = events.find((e) => e.kind === "llm_response");
  const provider =
    options.agent?.provider ?? (firstReply?.kind === "llm_response" ? firstReply.data.provider : undefined);
  const info: TracedAgent = {
    name: options.agent?.name ?? "agent",
    ...(options.agent?.sessionId ? { sessionId: options.agent.sessionId } : {}),
    ...(provider ? { provider } : {}),
  };
  const sink = new LangSmithSink({
    client,
    projectName: options.projectName ?? process.env.LANGSMITH_PROJECT ?? "harnessx",
    maxContentChars,
    ledger,
    redactor: options.redactor ?? new Redactor(),
    ...(info.sessionId ? { metadata: { thread_id: info.sessionId } } : {}),
  });
  const mapper = new SpanMapper(sink, info, { captureContent: false, maxContentChars });
  for (const e of events) mapper.handle(e);
  mapper.closeAll(events.at(-1)?.ts ?? Date.now());
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

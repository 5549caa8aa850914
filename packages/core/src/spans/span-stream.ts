import { Redactor } from "../redact/redactor.js";
import { SpanMapper } from "./mapper.js";
import { SpanCollector, type MappedSpan } from "./span-collector.js";
import type { TracedAgent, TraceEvent } from "./span-model.js";
import { DEFAULT_MAX_CONTENT_CHARS, type MappingOptions } from "./span-specs.js";

/** How events become spans: the mapping's options, plus agent facts, redaction and how much detail to keep. */
export interface MapSpansOptions extends Partial<MappingOptions> {
  /** Agent facts the events do not carry: its name (default "agent"), session, provider (default from the first reply). */
  agent?: Partial<TracedAgent>;
  /** Redaction policy for text attributes and error messages; default `new Redactor()` (the default rules). */
  redactor?: Redactor;
  /** Default true: keep what each span was made from (LangSmith runs need it); false keeps the role and ids only (enough for OTLP and Chrome traces). */
  keepDetail?: boolean;
}

/**
 * `mapSpans` fed one event at a time: each span is handed to `onSpan` when it ends, with the
 * order it opened in (`mapSpans` is this, collected), so a recording too big to hold whole
 * maps in bounded memory. The provider of a run's spans is the one its first model reply names
 * (unless `options.agent.provider` says it): events are held back until that reply arrives or
 * the stream ends, which in practice is the first few events of a run.
 */
export class SpanStream {
  private held: TraceEvent[] | undefined = [];
  private mapper: SpanMapper<MappedSpan> | undefined;
  private collector: SpanCollector | undefined;
  private lastTs: number | undefined;

  constructor(
    private readonly options: MapSpansOptions,
    private readonly onSpan: (span: MappedSpan, order: number) => void,
  ) {
    if (options.agent?.provider !== undefined) this.start(undefined);
  }

  /** Feeds the next event; events must come in the order they happened. */
  push(e: TraceEvent): void {
    this.lastTs = e.ts;
    if (this.mapper) {
      this.mapper.handle(e);
      return;
    }
    this.held!.push(e);
    if (e.kind === "llm_response") this.start(typeof e.data.provider === "string" ? e.data.provider : undefined);
  }

  /** Ends every span still open at the last event's time (0 when there was none) and hands over the rest. */
  end(): void {
    if (!this.mapper) this.start(undefined);
    this.mapper!.closeAll(this.lastTs ?? 0);
    this.collector!.flush();
  }

  private start(replyProvider: string | undefined): void {
    const { options } = this;
    const provider = options.agent?.provider ?? replyProvider;
    const info: TracedAgent = {
      name: options.agent?.name ?? "agent",
      ...(options.agent?.sessionId ? { sessionId: options.agent.sessionId } : {}),
      ...(provider ? { provider } : {}),
    };
    this.collector = new SpanCollector(options.redactor ?? new Redactor(), options.keepDetail ?? true, this.onSpan);
    this.mapper = new SpanMapper(this.collector, info, {
      captureContent: options.captureContent ?? false,
      maxContentChars: options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS,
    });
    const held = this.held ?? [];
    this.held = undefined;
    for (const e of held) this.mapper.handle(e);
  }
}

import { createNoopMeter, type Attributes, type Counter, type Meter, type MeterProvider } from "@opentelemetry/api";

/** The batch processor's self-observability counter, and the value it gives spans dropped at a full queue. */
const PROCESSED = "otel.sdk.processor.span.processed";
const QUEUE_FULL = "queue_full";

/**
 * A `selfObsMeterProvider` for a batch span processor that listens for one thing: spans it drops
 * because its queue is full. The processor drops them without a word otherwise; through its own
 * report they are counted as they happen, exactly, instead of guessed from its queue afterwards.
 */
export function queueFullListener(onDropped: (spans: number) => void): MeterProvider {
  const meter: Meter = Object.create(createNoopMeter());
  const noop = meter.createCounter.bind(meter);
  meter.createCounter = <A extends Attributes>(
    name: string,
    options?: Parameters<Meter["createCounter"]>[1],
  ): Counter<A> => {
    if (name !== PROCESSED) return noop<A>(name, options);
    return {
      add(value: number, attributes?: A) {
        if (attributes?.["error.type"] === QUEUE_FULL) onDropped(value);
      },
    };
  };
  return { getMeter: () => meter };
}

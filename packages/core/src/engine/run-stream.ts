import type { RunSink } from "./services.js";
import type { RunEvent, RunResult } from "./run-types.js";

/** The async iterable `runStream` returns; `result` settles with the run. */
export interface RunStream extends AsyncIterable<RunEvent> {
  /** The run's result, as `run` would return it; rejects when the run could not start (agent busy, closed, or waiting for approval). */
  readonly result: Promise<RunResult>;
}

/** A buffering sink: events are kept until the consumer reads them. */
export class StreamSink implements RunSink {
  readonly streaming = true;
  private readonly buffer: RunEvent[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  private failure: unknown;

  push(event: RunEvent): void {
    this.buffer.push(event);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The run could not start (busy or closed agent): iteration throws this after the buffered events. */
  fail(error: unknown): void {
    this.failure = error;
    this.end();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  async *events(): AsyncGenerator<RunEvent> {
    for (;;) {
      while (this.buffer.length > 0) yield this.buffer.shift()!;
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

export function makeRunStream(sink: StreamSink, result: Promise<RunResult>): RunStream {
  // A rejection reaches whoever iterates or awaits `result`; it is never left unhandled.
  result.then(
    () => sink.end(),
    (error: unknown) => sink.fail(error),
  );
  return {
    result,
    [Symbol.asyncIterator]: () => sink.events(),
  };
}

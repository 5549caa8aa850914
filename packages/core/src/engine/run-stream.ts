import type { RunSink } from "./services.js";
import type { RunEvent, RunResult } from "./run-types.js";

/** The async iterable `runStream` returns; `result` settles with the run. */
export interface RunStream extends AsyncIterable<RunEvent> {
  readonly result: Promise<RunResult>;
}

/** A buffering sink: events are kept until the consumer reads them. */
export class StreamSink implements RunSink {
  readonly streaming = true;
  private readonly buffer: RunEvent[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;

  push(event: RunEvent): void {
    this.buffer.push(event);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  async *events(): AsyncGenerator<RunEvent> {
    for (;;) {
      while (this.buffer.length > 0) yield this.buffer.shift()!;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

export function makeRunStream(sink: StreamSink, result: Promise<RunResult>): RunStream {
  void result.finally(() => sink.end()).catch(() => {});
  return {
    result,
    [Symbol.asyncIterator]: () => sink.events(),
  };
}

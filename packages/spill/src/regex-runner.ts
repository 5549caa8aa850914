import { Worker } from "node:worker_threads";
import { ReadResultError } from "./errors.js";
import type { TextView } from "./text-view.js";

/**
 * Runs the model's regular expression in a worker thread, because a catastrophic
 * pattern (e.g. `(a+)+$`) can spin the JavaScript regex engine for hours and cannot
 * be interrupted on the main thread; the worker is terminated at the time limit.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", (job) => {
  const re = new RegExp(job.source, job.flags);
  const found = [];
  let m;
  while (found.length < job.limit * 2 && (m = re.exec(job.text)) !== null) {
    found.push(m.index, m[0].length);
    if (m[0].length === 0) re.lastIndex++;
  }
  parentPort.postMessage(found);
});
`;

/** Bytes decoded and sent to the worker at once; chunks end at line ends, so matches within a line are all found. */
const CHUNK_BYTES = 4_000_000;

/** The worker's JavaScript heap: a piece as a string, its matches, and the engine's backtracking. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

/**
 * End of the piece starting at `from`: the end of the line at CHUNK_BYTES, unless that line runs
 * past twice as far. Such a line is cut at a character boundary, so a 100 MB line is never one
 * string on the agent's thread; a match spanning the cut is not found, and ^ or $ may match at it.
 */
function pieceEnd(view: TextView, from: number): number {
  const to = from + CHUNK_BYTES;
  if (to >= view.length) return view.length;
  const lineEnd = view.lineEnd(to) + 1;
  return lineEnd - from <= 2 * CHUNK_BYTES ? Math.min(view.length, lineEnd) : view.boundary(to);
}

/** A match as byte offset and byte length in the view. */
export interface RegexMatch {
  index: number;
  length: number;
}

export class RegexRunner {
  private worker?: Worker;

  /** Up to `limit` matches of `re` in the view, in order; throws a ReadResultError when `timeoutMs` passes. */
  async find(view: TextView, re: RegExp, limit: number, timeoutMs: number): Promise<RegexMatch[]> {
    const deadline = Date.now() + timeoutMs;
    const matches: RegexMatch[] = [];
    let from = 0;
    while (from < view.length && matches.length < limit) {
      const to = pieceEnd(view, from);
      const text = view.text(from, to);
      const found = await this.run(
        { text, source: re.source, flags: re.flags, limit: limit - matches.length },
        deadline - Date.now(),
        timeoutMs,
      );
      const ascii = text.length === to - from;
      // Matches come in order, so string offsets become byte offsets in one pass over the piece.
      let chars = 0;
      let bytes = 0;
      for (let i = 0; i < found.length; i += 2) {
        const [index, length] = [found[i], found[i + 1]];
        if (ascii) {
          matches.push({ index: from + index, length });
          continue;
        }
        bytes += Buffer.byteLength(text.slice(chars, index));
        chars = index;
        matches.push({ index: from + bytes, length: Buffer.byteLength(text.slice(index, index + length)) });
      }
      from = to;
    }
    return matches;
  }

  private run(
    job: { text: string; source: string; flags: string; limit: number },
    remainingMs: number,
    timeoutMs: number,
  ): Promise<number[]> {
    const worker = (this.worker ??= this.spawn());
    return new Promise((resolve, reject) => {
      const stop = (error: Error) => {
        cleanup();
        this.kill();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          stop(
            new ReadResultError(
              "search_timeout",
              `the regular expression did not finish within ${timeoutMs} ms (likely catastrophic backtracking, e.g. nested quantifiers like (a+)+). Use a simpler pattern or a literal search (regex: false).`,
            ),
          ),
        Math.max(0, remainingMs),
      );
      const onMessage = (found: number[]) => {
        cleanup();
        resolve(found);
      };
      const onError = (error: Error) =>
        stop(new ReadResultError("bad_pattern", `the regular expression failed: ${error.message}`));
      const cleanup = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.postMessage(job);
    });
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: WORKER_LIMITS });
    worker.unref();
    return worker;
  }

  private kill(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }
}

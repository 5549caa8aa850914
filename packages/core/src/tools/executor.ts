import { toError } from "../errors.js";
import type { ToolCall, ToolResult } from "../types/content.js";
import { linkedSignal, sleep } from "../util/abort.js";
import { idempotencyKeyOf } from "./idempotency.js";
import { renderToolOutput, type Tool } from "./tool.js";

export interface ToolRun {
  result: ToolResult;
  /** What the handler returned, or the Error it threw. */
  rawResult: unknown;
  outcome: "executed" | "failed" | "timeout";
}

export interface ExecuteOptions {
  runId: string;
  signal?: AbortSignal;
  onRetry?: (attempt: number, delayMs: number, error: Error) => void | Promise<void>;
}

class ToolTimeoutError extends Error {}

/** Runs a tool handler with its timeout and retry settings; never throws for handler failures. */
export async function executeTool(tool: Tool, call: ToolCall, options: ExecuteOptions): Promise<ToolRun> {
  const attempts = Math.max(1, tool.retry?.attempts ?? 1);
  let delay = tool.retry?.backoffMs ?? 200;
  let last: ToolRun | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    last = await attemptOnce(tool, call, options);
    const retryWanted = last.result.isError || (tool.retryIfResult?.(last.result) ?? false);
    if (!retryWanted || attempt === attempts || options.signal?.aborted) return last;
    const error =
      last.rawResult instanceof Error
        ? last.rawResult
        : new Error(`retryIfResult asked for another attempt of "${tool.name}"`);
    await options.onRetry?.(attempt, delay, error);
    await sleep(delay, options.signal);
    delay = Math.min(delay * (tool.retry?.factor ?? 2), tool.retry?.maxBackoffMs ?? 10_000);
  }
  return last as ToolRun;
}

/** Handed to handlers that can be neither cancelled nor timed out: spares an AbortController per call. */
const NEVER_ABORTED = { signal: new AbortController().signal, timedOut: () => false, dispose: () => {} };

async function attemptOnce(tool: Tool, call: ToolCall, options: ExecuteOptions): Promise<ToolRun> {
  const timeoutMs = tool.timeoutSeconds !== undefined ? tool.timeoutSeconds * 1000 : undefined;
  const link = timeoutMs === undefined && !options.signal ? NEVER_ABORTED : linkedSignal([options.signal], timeoutMs);
  try {
    const pending = Promise.resolve().then(() =>
      tool.execute(call.input, {
        toolCall: call,
        runId: options.runId,
        signal: link.signal,
        idempotencyKey: idempotencyKeyOf(options.runId, call.id),
      }),
    );
    const raw = await (timeoutMs === undefined && !options.signal
      ? pending
      : Promise.race([
          pending,
          new Promise<never>((_, reject) => {
            const fail = () =>
              reject(
                link.timedOut()
                  ? new ToolTimeoutError(`tool "${tool.name}" timed out after ${tool.timeoutSeconds} s`)
                  : toError(link.signal.reason),
              );
            if (link.signal.aborted) fail();
            else link.signal.addEventListener("abort", fail, { once: true });
          }),
        ]));
    return {
      rawResult: raw,
      outcome: "executed",
      result: { toolCallId: call.id, name: call.name, content: renderToolOutput(raw), isError: false },
    };
  } catch (thrown) {
    const error = toError(thrown);
    const timeout = error instanceof ToolTimeoutError;
    return {
      rawResult: error,
      outcome: timeout ? "timeout" : "failed",
      result: { toolCallId: call.id, name: call.name, content: `Error: ${error.message}`, isError: true },
    };
  } finally {
    link.dispose();
  }
}

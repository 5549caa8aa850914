import { ExtensionError, RunError, toError } from "../errors.js";
import type { RunUsage } from "../engine/run-types.js";
import type { Registry } from "../util/registry.js";

/** Where a run stands before its next model call: what a run limit decides on. */
export interface RunProgress {
  /** The run being checked. */
  readonly runId: string;
  /** Model calls made so far in the run (retries of one call count once). */
  readonly modelCalls: number;
  /** Tool calls executed so far in the run. */
  readonly toolCalls: number;
  /** Tokens and cost so far; `cost.usd` counts priced calls only (`cost.unpricedCalls` says how many were not). */
  readonly usage: RunUsage;
  /** Milliseconds the run has been working, approval waits left out. */
  readonly elapsedMs: number;
}

/**
 * What a run limit asks for when it is reached: `"answer"` lets the model make one last call
 * without tools and ends the run with that answer; `"fail"` ends the run at once as failed.
 */
export interface RunLimitVerdict {
  /** End with a last answer without tools, or fail at once. */
  action: "answer" | "fail";
  /** Why, for the model (when answering), the recording and the error: e.g. "it spent $0.52 of its $0.50 budget". */
  reason: string;
}

/**
 * A check the loop makes before every model call of a run (`ctx.addRunLimit`). It can only end
 * a run sooner, never extend it. A limit that throws fails the run: a limit that cannot decide
 * must not let the run spend on.
 */
export interface RunLimit {
  /** A verdict when the limit is reached; undefined lets the run go on. */
  check(progress: RunProgress): RunLimitVerdict | undefined;
}

/**
 * Asks the registered limits in registration order: the first verdict's reason when it asks for
 * a last answer, a thrown `RunError` (`budget_exhausted`) when it asks to fail. A throwing limit
 * becomes an `ExtensionError`, and any action but "answer" fails: a limit that cannot say what it
 * wants must not let the run spend on.
 */
export function reachedLimit(limits: Registry<RunLimit>, progress: RunProgress): string | undefined {
  for (const { value, owner } of limits.list()) {
    let verdict: RunLimitVerdict | undefined;
    try {
      verdict = value.check(progress);
    } catch (err) {
      throw new ExtensionError(owner ?? "application", `run limit failed, so the run stops: ${toError(err).message}`, {
        cause: err,
      });
    }
    if (!verdict) continue;
    const reason = String(verdict.reason).slice(0, 500);
    if (verdict.action !== "answer") throw new RunError("budget_exhausted", `the run was stopped because ${reason}`);
    return reason;
  }
  return undefined;
}

import { CancelledError, ExtensionError, HarnessError, RunError, toError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { addDelegated } from "../subagents/parent-run.js";
import { errorSource } from "./error-source.js";
import type { RunState } from "./run-state.js";
import type { PendingApproval, RunResult, RunStatus } from "./run-types.js";
import { fire } from "./services.js";

/** Stops the run to wait for approval of `pending`: the clock stands still until `resume`. */
export async function pauseRun(run: RunState, pending: PendingApproval[]): Promise<RunResult> {
  const { services, durable, counters } = run;
  run.clock.pause();
  run.unlist?.();
  const result = resultOf(run, "awaiting_approval", undefined, pending);
  // Not terminal (no AGENT_END), but observers such as recorders need to know the run now waits.
  if (durable)
    await durable.waiting(
      counters.iteration,
      pending.map((p) => p.id),
    );
  else
    await fire(services, HookEvent.CHECKPOINT, {
      sessionId: services.info.sessionId,
      runId: run.runId,
      status: "awaiting_approval",
      phase: "approval_wait",
    });
  run.sink.push({ type: "result", result });
  return result;
}

/**
 * Ends the run: `onTurnSuccess` when it completed (a failure there fails the run), the journal's
 * end, its spending added to its parent's, `AGENT_END`, every `onTurnEnd`, and the result.
 */
export async function endRun(run: RunState, status: RunStatus, error?: HarnessError): Promise<RunResult> {
  const { services } = run;
  const result = resultOf(run, status, error);
  if (status === "completed") {
    try {
      await services.extensions.turnSuccess(result.text);
    } catch (err) {
      return failRun(run, err);
    }
  }
  if (status !== "awaiting_approval") await run.durable?.end(status);
  run.unlist?.();
  run.parent?.absorb(addDelegated({ modelCalls: result.modelCalls, usage: result.usage }, run.counters.delegated));
  await fire(services, HookEvent.AGENT_END, { result });
  await services.extensions.turnEnd(result);
  run.sink.push({ type: "result", result });
  return result;
}

/** Ends the run on what it threw: cancelled when it was cancelled, else failed after an `ERROR` event. */
export async function failRun(run: RunState, err: unknown): Promise<RunResult> {
  if (err instanceof CancelledError || run.signal?.aborted)
    return endRun(run, "cancelled", err instanceof CancelledError ? err : new CancelledError());
  const error = err instanceof HarnessError ? err : new RunError("run_failed", toError(err).message, { cause: err });
  await fire(run.services, HookEvent.ERROR, {
    source: errorSource(error),
    error,
    ...(error instanceof ExtensionError ? { extension: error.extension } : {}),
  });
  return endRun(run, "failed", error);
}

function resultOf(run: RunState, status: RunStatus, error?: HarnessError, pending: PendingApproval[] = []): RunResult {
  const { textParts, usage, cost, modelCalls } = run.counters;
  return {
    status,
    text: textParts.join(""),
    ...(error ? { error } : {}),
    pending,
    usage: { ...usage, cost: { ...cost } },
    runId: run.runId,
    modelCalls,
  };
}

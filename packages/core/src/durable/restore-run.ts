import type { SessionState } from "../session/session-state.js";
import type { DurableServices } from "./durable-store.js";
import { readResumePoint } from "./read-journal.js";
import type { RestoredRun } from "./restored-run.js";
import { ResumeError } from "./resume-error.js";

/**
 * Reads a run's journal and puts its last snapshot back into the agent through `load` (the
 * conversation, the task list, and each extension's `onLoadSession`). Returns the run's input
 * and what its loop resumes from.
 */
export async function restoreRun(
  durable: DurableServices | undefined,
  sessionId: string,
  runId: string,
  load: (state: SessionState) => Promise<void>,
): Promise<{ input: string; restored: RestoredRun }> {
  if (!durable)
    throw new ResumeError(
      "durable_off",
      runId,
      `cannot resume ${runId}: this agent has no durable store (AgentOptions.durable); only runs journaled by one can be resumed`,
    );
  const { start, snapshot, after } = await readResumePoint(durable.options.store, runId);
  await load({
    format: "harnessx.session",
    version: 1,
    sessionId,
    messages: snapshot.entries,
    todos: snapshot.todos,
    extensions: snapshot.extensions,
  });
  const span = {
    traceId: start.traceId,
    spanId: start.spanId,
    role: "agent" as const,
    ...(start.parentSpanId ? { parentSpanId: start.parentSpanId } : {}),
  };
  return { input: start.input, restored: { counters: snapshot.counters, span, after } };
}

import { RunError } from "../errors.js";
import type { AssistantMessage, ToolCallBlock } from "../types/content.js";
import type { ProviderResponse, StopReason } from "../types/provider.js";
import { textOf } from "./content.js";
import { recoveryFor, type ReplyRecovery, type ReplyView } from "./recoveries.js";
import type { RunState } from "./run-state.js";

/** What the loop does after a model reply: call the model again, end the run with its answer, or run the tools it asked for. */
export type ReplyNext = { next: "call_again" } | { next: "answered" } | { next: "run_tools"; calls: ToolCallBlock[] };

/**
 * Takes a model reply into the run. A reply the loop cannot use goes through the recoveries, and
 * the model is called again; a reply without tool calls, or the final call's, is the run's answer
 * (the final call's must hold text: silence is not an answer, and the run fails).
 */
export async function takeReply(run: RunState, response: ProviderResponse): Promise<ReplyNext> {
  const { counters } = run;
  const calls = response.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
  const text = textOf(response.content);
  if (text.trim() !== "") counters.lastText = text;

  const reply = view(run, response.stopReason, calls, text);
  const recovery = recoveryFor(reply, (reason) => run.recoveryCount(reason));
  if (!recovery?.dropReply) store(run, response);
  if (recovery) {
    await recoverFrom(run, recovery, reply);
    return { next: "call_again" };
  }
  if (calls.length === 0 || counters.finalCall) {
    if (counters.finalCall && text.trim() === "") return noFinalAnswer(run, calls.length);
    counters.textParts.push(text);
    await run.endIteration(0);
    return { next: "answered" };
  }
  return { next: "run_tools", calls };
}

function view(run: RunState, stopReason: StopReason, calls: readonly ToolCallBlock[], text: string): ReplyView {
  const { services, counters } = run;
  const open = services.todos.current.filter((t) => t.status !== "completed").length;
  return {
    stopReason,
    calls,
    text,
    finalCall: counters.finalCall !== undefined,
    openTodos: open,
    replyBudget: counters.replyBudget,
    maxReplyTokens: services.config.maxReplyTokens,
  };
}

/** Keeps the reply in the history; the final call's reply without the tool calls it was told not to make. */
function store(run: RunState, response: ProviderResponse): void {
  const content = run.counters.finalCall ? response.content.filter((b) => b.type !== "tool_call") : response.content;
  if (content.length > 0) run.services.memory.push({ role: "assistant", content } satisfies AssistantMessage);
}

/** Makes a reply recovery: the run goes on with one more model call. */
async function recoverFrom(run: RunState, recovery: ReplyRecovery, reply: ReplyView): Promise<void> {
  const { counters } = run;
  if (recovery.keepText) counters.textParts.push(reply.text);
  if (recovery.replyBudget) counters.replyBudget = recovery.replyBudget(reply);
  await run.recover(recovery.reason, recovery.replyBudget ? counters.replyBudget : null);
  if (recovery.nudge) run.tell(recovery.nudge(reply));
  await run.endIteration(0);
}

/** The tool-free final call got tool calls (or nothing) back: completing with empty text would pass silence off as an answer. */
async function noFinalAnswer(run: RunState, toolCalls: number): Promise<never> {
  const { counters } = run;
  await run.recover("no_final_answer", null);
  await run.endIteration(0);
  if (counters.textParts.join("").trim() === "") counters.textParts.push(counters.lastText);
  const asked = toolCalls > 0 ? `asked for ${toolCalls} more tool call(s)` : "gave an empty reply";
  throw new RunError(
    "no_final_answer",
    `the model ${asked} instead of answering after it was told to stop calling tools (${counters.finalCall}); result.text holds the last text it wrote`,
  );
}

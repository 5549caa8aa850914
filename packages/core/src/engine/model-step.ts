import { ProviderError } from "../errors.js";
import type { RecoveryReason } from "../hooks/payloads.js";
import type { CallCost } from "../cost/call-cost.js";
import { addCost } from "../cost/call-cost.js";
import type { DurableRun } from "../durable/durable-run.js";
import type { RunCounters } from "../durable/journal-entry.js";
import type { Usage } from "../types/content.js";
import type { ProviderResponse } from "../types/provider.js";
import { condenseHistory, shrinkHistory } from "./condense.js";
import { addUsage } from "./content.js";
import { callModel, processReply } from "./model-call.js";
import type { EngineServices, RunSink } from "./services.js";

/** What the model step of a loop iteration works with. */
export interface ModelStep {
  counters: RunCounters;
  durable: DurableRun | undefined;
  sink: RunSink;
  signal: AbortSignal | undefined;
  /** Recoveries of `reason` made so far in the run. */
  recoveryCount(reason: RecoveryReason): number;
  /** Counts and reports one more recovery. */
  recover(reason: RecoveryReason, replyBudget: number | null, detail?: string): Promise<void> | undefined;
}

/**
 * The step's model reply: taken from the journal when a resumed durable run stopped after it was
 * committed, else asked of the model (condensing first when over budget, and again on a
 * context-overflow refusal; a smaller reply budget on a reply-limit refusal).
 */
export async function callModelWithRecovery(services: EngineServices, step: ModelStep): Promise<ProviderResponse> {
  const { config, memory } = services;
  const { counters: c, durable, sink } = step;
  if (config.condense && memory.estimatedTokens > config.contextBudgetTokens) await condenseHistory(services, "budget");
  const onUsage = (u: Usage, cost: CallCost) => {
    addUsage(c.usage, u);
    addCost(c.cost, cost);
  };
  const replayed = durable?.takeReply(c.iteration);
  if (replayed) {
    c.modelCalls++;
    onUsage(replayed.response.usage, replayed.cost);
    return processReply(services, replayed.response, sink, sink.streaming);
  }
  const iteration = c.iteration;
  const onRawReply = durable
    ? { onRawReply: (response: ProviderResponse, cost: CallCost) => durable.reply(iteration, response, cost) }
    : {};
  const onFallback = (detail: string) => step.recover("fallback", null, detail);
  for (;;) {
    try {
      c.modelCalls++;
      return await callModel(services, {
        tools: c.finalCall ? [] : services.tools.definitions(),
        maxTokens: c.replyBudget,
        signal: step.signal,
        sink,
        onUsage,
        onFallback,
        ...onRawReply,
      });
    } catch (err) {
      if (
        err instanceof ProviderError &&
        err.kind === "reply_limit" &&
        err.limit &&
        err.limit < c.replyBudget &&
        step.recoveryCount("reply_limit") < 2
      ) {
        c.replyBudget = err.limit;
        await step.recover("reply_limit", err.limit);
        continue;
      }
      if (
        !(err instanceof ProviderError) ||
        err.kind !== "context_overflow" ||
        step.recoveryCount("context_overflow") + step.recoveryCount("context_overflow_spill") >= 3
      )
        throw err;
      if (await condenseHistory(services, "overflow")) {
        await step.recover("context_overflow", null);
      } else if (shrinkHistory(services)) {
        await step.recover("context_overflow_spill", null);
      } else {
        throw err;
      }
    }
  }
}

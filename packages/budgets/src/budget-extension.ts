import { ConfigError } from "@harnessx/core";
import { defineExtension, type Extension } from "@harnessx/core/extension";
import type { RunLimitVerdict, RunProgress } from "@harnessx/core";

/** Per-run limits of `budgetExtension`; at least one is needed. */
export interface BudgetOptions {
  /** US dollars of priced model calls (see `AgentConfig.prices`); unpriced calls cannot count and are reported. */
  maxCostUsd?: number;
  /** Input plus output tokens. */
  maxTokens?: number;
  /** Model calls. */
  maxModelCalls?: number;
  /** Milliseconds of work, approval waits left out; checked before each model call, so a call or tool in flight finishes. */
  maxWallTimeMs?: number;
  /**
   * What a reached limit does: `"answer"` (default) makes one last model call without tools and
   * completes the run with its answer; `"fail"` fails the run with a `RunError` coded `budget_exhausted`.
   */
  onExhausted?: "answer" | "fail";
}

const LIMITS = ["maxCostUsd", "maxTokens", "maxModelCalls", "maxWallTimeMs"] as const;

/**
 * Caps what one run may spend. Before each model call it compares the run's cost, tokens, model
 * calls and working time with the limits; the first one reached ends the run, with a `RECOVERY`
 * event of reason `budget_exhausted` (answer) or a failed run (fail), both in the recording.
 */
export function budgetExtension(options: BudgetOptions): Extension {
  const limits = validBudget(options);
  const action = options.onExhausted ?? "answer";
  /** The run whose unpriced calls were reported: once per run is enough. */
  let reportedUnpriced: string | undefined;
  return defineExtension("budget", (hx) => {
    hx.addRunLimit({
      check(progress): RunLimitVerdict | undefined {
        if (
          limits.maxCostUsd !== undefined &&
          progress.usage.cost.unpricedCalls > 0 &&
          reportedUnpriced !== progress.runId
        ) {
          reportedUnpriced = progress.runId;
          void hx.reportError(
            new ConfigError(
              `budget: ${progress.usage.cost.unpricedCalls} model call(s) of run ${progress.runId} have no price, so maxCostUsd cannot count them; price the model with the agent's \`pricing.prices\` option`,
            ),
          );
        }
        const reason = exhausted(limits, progress);
        return reason ? { action, reason } : undefined;
      },
    });
  });
}

/** Why the run's budget is spent, or undefined while every limit holds. */
function exhausted(limits: BudgetOptions, p: RunProgress): string | undefined {
  const usd = p.usage.cost.usd ?? 0;
  if (limits.maxCostUsd !== undefined && usd >= limits.maxCostUsd)
    return `it spent $${usd.toFixed(4)} of its $${limits.maxCostUsd} budget`;
  const tokens = p.usage.inputTokens + p.usage.outputTokens;
  if (limits.maxTokens !== undefined && tokens >= limits.maxTokens)
    return `it used ${tokens} of its ${limits.maxTokens} tokens`;
  if (limits.maxModelCalls !== undefined && p.modelCalls >= limits.maxModelCalls)
    return `it made ${p.modelCalls} of its ${limits.maxModelCalls} model calls`;
  if (limits.maxWallTimeMs !== undefined && p.elapsedMs >= limits.maxWallTimeMs)
    return `it worked ${Math.round(p.elapsedMs)} ms of its ${limits.maxWallTimeMs} ms`;
  return undefined;
}

function validBudget(options: BudgetOptions): BudgetOptions {
  if (typeof options !== "object" || options === null)
    throw new ConfigError(`budgetExtension needs options with at least one of ${LIMITS.join(", ")}`);
  const set = LIMITS.filter((key) => options[key] !== undefined);
  if (set.length === 0) throw new ConfigError(`budgetExtension: set at least one of ${LIMITS.join(", ")}`);
  for (const key of set) {
    const value = options[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
      throw new ConfigError(`budgetExtension: ${key} must be a positive number, got ${JSON.stringify(value)}`);
  }
  if (options.onExhausted !== undefined && options.onExhausted !== "answer" && options.onExhausted !== "fail") {
    throw new ConfigError(
      `budgetExtension: onExhausted must be "answer" or "fail", got ${JSON.stringify(options.onExhausted)}`,
    );
  }
  return { ...options };
}

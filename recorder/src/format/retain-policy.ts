import { ConfigError } from "@harnessx/core";
import { traceIdRatioSampled } from "@harnessx/core/tracing";
import type { RunManifest } from "./event.js";
import { costOfModels } from "./run-rollup.js";
import {
  RETAIN_CONDITIONS,
  type ResolvedRetainPolicy,
  type RetainCondition,
  type RetainPolicy,
} from "./retain-types.js";

/** Why a run keeps its events, or `undefined` when its policy reduces it to a summary. */
export type RetainReason = RetainCondition | "slow" | "cost" | "sampled" | "no-policy" | "open";

function nonNegative(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new ConfigError(`FlightRecorderExtension: retain.${name} must be a finite number >= 0, got ${String(value)}`);
  return value;
}

/** Checks the `retain` option; `ConfigError` on a bad value. */
export function resolveRetainPolicy(policy: RetainPolicy | undefined): ResolvedRetainPolicy | undefined {
  if (policy === undefined) return undefined;
  if (typeof policy !== "object" || policy === null || Array.isArray(policy))
    throw new ConfigError(
      `FlightRecorderExtension: retain must be an object like { always: ["failed", "crashed", "error"] }, got ${JSON.stringify(policy)}`,
    );
  const always = policy.always ?? ["failed", "crashed", "error"];
  if (!Array.isArray(always))
    throw new ConfigError(`FlightRecorderExtension: retain.always must be an array of ${RETAIN_CONDITIONS.join(", ")}`);
  for (const condition of always) {
    if (!RETAIN_CONDITIONS.includes(condition))
      throw new ConfigError(
        `FlightRecorderExtension: retain.always holds ${JSON.stringify(condition)}; the conditions are ${RETAIN_CONDITIONS.join(", ")}`,
      );
  }
  const sample = nonNegative("sample", policy.sample);
  if (sample !== undefined && sample > 1)
    throw new ConfigError(`FlightRecorderExtension: retain.sample must be a fraction from 0 to 1, got ${sample}`);
  const slowerThanMs = nonNegative("slowerThanMs", policy.slowerThanMs);
  const costAbove = nonNegative("costAbove", policy.costAbove);
  return {
    always: [...new Set(always)],
    ...(slowerThanMs !== undefined ? { slowerThanMs } : {}),
    ...(costAbove !== undefined ? { costAbove } : {}),
    ...(sample !== undefined ? { sample } : {}),
  };
}

/**
 * The one retention rule: why an ended run keeps its events under the policy its `run.json`
 * recorded, or `undefined` when it is reduced to its summary. A run without a policy, still
 * open (or waiting for approval: it will resume) or without a rollup to summarize it is kept.
 */
export function retainReason(run: RunManifest): RetainReason | undefined {
  const policy = run.retain;
  if (!policy) return "no-policy";
  if (run.endedAt === null || run.status === "running" || run.status === "awaiting_approval" || !run.rollup)
    return "open";
  for (const condition of policy.always) {
    if (condition === "error" ? (run.summary?.byKind.error ?? 0) > 0 : run.status === condition) return condition;
  }
  if (policy.slowerThanMs !== undefined && run.endedAt - run.startedAt > policy.slowerThanMs) return "slow";
  if (policy.costAbove !== undefined) {
    const cost = costOfModels(Object.values(run.rollup.models));
    if (cost.unpricedCalls > 0 || (cost.usd ?? 0) > policy.costAbove) return "cost";
  }
  // Without a trace id (recordings made before it) the sample cannot be drawn: the run is kept.
  if (policy.sample !== undefined && (run.traceId === undefined || traceIdRatioSampled(run.traceId, policy.sample)))
    return "sampled";
  return undefined;
}

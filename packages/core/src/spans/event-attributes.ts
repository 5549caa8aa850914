import type { ContextCondensedData, ErrorData, RecoveryData, RetryData, ToolCallEndData } from "../hooks/payloads.js";
import { GenAI } from "./attributes.js";
import type { Attributes, SpanError } from "./span-model.js";

/** The attributes of a `harnessx.recovery` span event: why the loop recovered, and how. */
export function recoveryAttributes(d: RecoveryData): Attributes {
  return compact({
    "harnessx.recovery.reason": d.reason,
    "harnessx.recovery.attempt": d.attempt,
    "harnessx.recovery.reply_budget": d.replyBudget,
    "harnessx.recovery.detail": d.detail,
  });
}

/** The attributes of a `harnessx.context_condensed` span event: what condensing dropped and kept. */
export function condensedAttributes(d: ContextCondensedData): Attributes {
  return compact({
    "harnessx.condensed.messages_dropped": d.messagesDropped,
    "harnessx.condensed.summary_chars": d.summaryChars,
    "harnessx.condensed.summarized": d.summarized,
  });
}

/** The attributes of a `harnessx.policy_denied` span event: which permission source refused the call, and why. */
export function deniedAttributes(end: ToolCallEndData): Attributes {
  return compact({
    "harnessx.permission.source": end.permission?.source,
    "harnessx.permission.reason": end.permission?.reason,
  });
}

/** The attributes of a `harnessx.retry` span event; `err` is the failure retried (see `spanError`). */
export function retryAttributes(d: RetryData, err: SpanError): Attributes {
  return compact({
    "harnessx.retry.target": d.target,
    "harnessx.retry.attempt": d.attempt,
    "harnessx.retry.delay_ms": d.delayMs,
    [GenAI.ERROR_TYPE]: err.type,
    "exception.message": err.message,
  });
}

/** The attributes of a run's `harnessx.error` span event; `err` is the error read by `spanError`. */
export function errorAttributes(d: ErrorData, err: SpanError): Attributes {
  return compact({
    "harnessx.error.source": d.source,
    "exception.type": err.type,
    "exception.message": err.message,
    "harnessx.error.extension": d.extension,
    "harnessx.dropped": d.dropped,
  });
}

/** Drops undefined and null values so every attribute is a valid OpenTelemetry value. */
function compact(values: Record<string, string | number | boolean | null | undefined>): Attributes {
  const out: Attributes = {};
  for (const key in values) {
    const v = values[key];
    if (v !== undefined && v !== null) out[key] = v;
  }
  return out;
}

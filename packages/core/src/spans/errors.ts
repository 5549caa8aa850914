import type { SpanError } from "./span-model.js";

/**
 * Reads an error that is either live (an Error) or recorded (its JSON form).
 * `error.type` is the harnessx code when there is one (`provider_rate_limit`,
 * `run_failed`, ...), else the error's class name, else `_OTHER`.
 */
export function spanError(value: unknown, fallbackType = "_OTHER"): SpanError {
  if (value && typeof value === "object") {
    const e = value as { code?: unknown; name?: unknown; message?: unknown };
    const type =
      typeof e.code === "string" && e.code
        ? e.code
        : typeof e.name === "string" && e.name && e.name !== "Error"
          ? e.name
          : fallbackType;
    return { type, message: typeof e.message === "string" ? e.message : "" };
  }
  if (typeof value === "string") return { type: fallbackType, message: value };
  return { type: fallbackType, message: "" };
}

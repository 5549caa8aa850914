import { ExtensionError, MiddlewareError, ProviderError, RunError, type HarnessError } from "../errors.js";
import type { ErrorSource } from "../hooks/payloads.js";

/** Where a run's failure came from, for its `ERROR` event. */
export function errorSource(error: HarnessError): ErrorSource {
  if (error instanceof ProviderError) return "provider";
  if (error instanceof MiddlewareError) return "middleware";
  if (error instanceof ExtensionError) return "extension";
  if (error instanceof RunError && error.code === "budget_exhausted") return "policy";
  return "provider";
}

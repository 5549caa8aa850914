import type { ToolResult } from "../types/content.js";
import type { SpillReference } from "./span-model.js";

/** A spilled result: the tool result names the stored content (its model-facing id and size). */
export function spillOf(result: ToolResult | undefined): SpillReference | undefined {
  const stored = result?.artifacts?.find((a) => typeof a.id === "string");
  return stored?.id ? { resultId: stored.id, bytes: stored.bytes } : undefined;
}

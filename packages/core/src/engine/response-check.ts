import { ProviderError } from "../errors.js";
import type { ContentBlock } from "../types/content.js";
import { STOP_REASONS, type ProviderResponse } from "../types/provider.js";

/** Checks that a provider's reply has the canonical shape; garbage becomes a typed ProviderError. */
export function checkResponse(value: unknown, providerName: string): ProviderResponse {
  const bad = (why: string) =>
    new ProviderError("bad_response", `provider "${providerName}" returned an unusable reply: ${why}`);
  if (!value || typeof value !== "object")
    throw bad(`expected an object, got ${value === null ? "null" : typeof value}`);
  const r = value as Partial<ProviderResponse>;
  if (!Array.isArray(r.content)) throw bad("content is not an array");
  r.content.forEach((block, i) => {
    const problem = blockProblem(block);
    if (problem) throw bad(`content[${i}] ${problem}`);
  });
  if (!STOP_REASONS.includes(r.stopReason as never))
    throw bad(`stopReason ${JSON.stringify(r.stopReason)} is not one of ${STOP_REASONS.join(", ")}`);
  const usage = r.usage ?? { inputTokens: 0, outputTokens: 0 };
  if (typeof usage.inputTokens !== "number" || typeof usage.outputTokens !== "number")
    throw bad("usage must have numeric inputTokens and outputTokens");
  return {
    id: typeof r.id === "string" ? r.id : "",
    model: typeof r.model === "string" ? r.model : "",
    provider: typeof r.provider === "string" ? r.provider : providerName,
    content: r.content,
    stopReason: r.stopReason as ProviderResponse["stopReason"],
    usage,
  };
}

function blockProblem(block: unknown): string | undefined {
  if (!block || typeof block !== "object") return "is not an object";
  const b = block as ContentBlock;
  switch (b.type) {
    case "text":
    case "reasoning":
      return typeof b.text === "string" ? undefined : "has no text";
    case "tool_call":
      if (typeof b.id !== "string" || b.id === "") return "tool_call has no id";
      if (typeof b.name !== "string") return "tool_call has no name";
      return b.input && typeof b.input === "object" && !Array.isArray(b.input)
        ? undefined
        : "tool_call input is not an object";
    case "provider":
      return typeof b.provider === "string" ? undefined : "provider block has no provider name";
    default:
      return `has unknown type ${JSON.stringify((b as { type?: unknown }).type)}`;
  }
}

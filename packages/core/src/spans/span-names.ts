import type { SpanRole } from "./span-context.js";

/** The operation of each role, as the OpenTelemetry GenAI conventions name it (`gen_ai.operation.name`). */
export const SPAN_OPERATION: Record<SpanRole, "invoke_agent" | "chat" | "execute_tool"> = {
  agent: "invoke_agent",
  chat: "chat",
  tool: "execute_tool",
};

/** `INTERNAL` for in-process work (agent, tool), `CLIENT` for a model call. */
export type SpanKindName = "INTERNAL" | "CLIENT";

/** The OpenTelemetry span kind of each role. */
export const SPAN_KIND: Record<SpanRole, SpanKindName> = { agent: "INTERNAL", chat: "CLIENT", tool: "INTERNAL" };

/** A span's name: `invoke_agent <agent>`, `chat <model>`, `execute_tool <tool>`. The one rule every reader and exporter shows. */
export function spanName(role: SpanRole, subject: string): string {
  return `${SPAN_OPERATION[role]} ${subject}`;
}

import type { Message, ModelRequest, StreamEvent, ToolDefinition } from "@harnessx/core";

export const WEATHER_TOOL: ToolDefinition = {
  name: "get_weather",
  description: "Current weather of a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

/** A canonical request with one user message, overridable field by field. */
export function modelRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "What is the weather in Paris?" }] }];
  return {
    model: "test-model",
    system: "You are terse.",
    messages,
    tools: [WEATHER_TOOL],
    maxTokens: 512,
    stream: false,
    ...overrides,
  };
}

/** Every event of a provider stream, in order. */
export async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The final response of a collected stream, checking there is exactly one and it comes last. */
export function finalResponse(events: StreamEvent[]) {
  const responses = events.filter((e) => e.type === "response");
  if (responses.length !== 1 || events.at(-1)?.type !== "response") {
    throw new Error(`expected exactly one response event, last; got ${events.map((e) => e.type).join(", ")}`);
  }
  return (responses[0] as Extract<StreamEvent, { type: "response" }>).response;
}

/** The concatenated argument text of each streamed tool call, by id, in first-seen order. */
export function streamedArguments(events: StreamEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events) if (e.type === "tool_call_delta") out.set(e.id, (out.get(e.id) ?? "") + e.argumentsDelta);
  return out;
}

export function streamedText(events: StreamEvent[], type: "text_delta" | "reasoning_delta" = "text_delta"): string {
  return events.flatMap((e) => (e.type === type ? [e.text] : [])).join("");
}

import { jsonReply, pieces, type FakeReply, type RecordedRequest, type Responder } from "./server.js";

/** One assistant turn, described once and rendered as the JSON or the SSE form of Chat Completions. */
export interface OpenAITurn {
  id?: string;
  model?: string;
  text?: string;
  /** Sent as `reasoning_content`, as llama.cpp, vLLM and DeepSeek do. */
  reasoning?: string;
  refusal?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  finishReason: "stop" | "tool_calls" | "length" | "content_filter";
  usage?: { prompt: number; completion: number; cached?: number };
}

const CREATED = 1_764_000_000;

/** Answers with the JSON completion, or SSE chunks when the request asked to stream. */
export function openAITurn(turn: OpenAITurn): Responder {
  return (request: RecordedRequest): FakeReply =>
    request.body?.stream
      ? {
          events: [
            ...chatCompletionChunks(turn, request.body.stream_options?.include_usage === true).map(sseEvent),
            DONE,
          ],
        }
      : jsonReply(chatCompletion(turn));
}

function usage(turn: OpenAITurn) {
  const u = turn.usage ?? { prompt: 0, completion: 0 };
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** `chat.completion` as the API returns it. */
export function chatCompletion(turn: OpenAITurn): Record<string, unknown> {
  return {
    id: turn.id ?? "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    object: "chat.completion",
    created: CREATED,
    model: turn.model ?? "gpt-4o-mini-2024-07-18",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text ?? null,
          ...(turn.reasoning ? { reasoning_content: turn.reasoning } : {}),
          refusal: turn.refusal ?? null,
          ...(turn.toolCalls?.length
            ? {
                tool_calls: turn.toolCalls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
          annotations: [],
        },
        logprobs: null,
        finish_reason: turn.finishReason,
      },
    ],
    usage: usage(turn),
    service_tier: "default",
    system_fingerprint: "fp_560af6e559",
  };
}

/** `chat.completion.chunk`s in the order the API streams them; the usage chunk only when asked for. */
export function chatCompletionChunks(turn: OpenAITurn, includeUsage: boolean): Array<Record<string, unknown>> {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: turn.id ?? "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    object: "chat.completion.chunk",
    created: CREATED,
    model: turn.model ?? "gpt-4o-mini-2024-07-18",
    service_tier: "default",
    system_fingerprint: "fp_560af6e559",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: Array<Record<string, unknown>> = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const p of pieces(turn.reasoning ?? "", 6)) chunks.push(chunk({ reasoning_content: p }));
  for (const p of pieces(turn.text ?? "", 5)) chunks.push(chunk({ content: p }));
  for (const p of pieces(turn.refusal ?? "", 5)) chunks.push(chunk({ refusal: p }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const p of pieces(call.arguments, 7))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  chunks.push(chunk({}, turn.finishReason));
  if (includeUsage) chunks.push({ ...chunk({}), choices: [], usage: usage(turn) });
  return chunks;
}

/** One chunk as an SSE event. */
export function sseEvent(data: Record<string, unknown>): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** The stream terminator. */
export const DONE = "data: [DONE]\n\n";

/** An API error reply: `{ error: { message, type, param, code } }`. */
export function openAIErrorReply(
  status: number,
  error: { message: string; type: string; code?: string | null; param?: string | null },
  headers: Record<string, string> = {},
): FakeReply {
  return jsonReply(
    { error: { message: error.message, type: error.type, param: error.param ?? null, code: error.code ?? null } },
    status,
    headers,
  );
}

// The SDK's three formats of model call content read the same: its own items (a custom Model),
// Chat Completions messages (`generation` spans of OpenAIChatCompletionsModel) and Responses API
// items (`response` spans of OpenAIResponsesModel), with usage in each one's shape.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { argumentsOf, outputUsage, replyBlocks, requestMessages, usageOf } from "./sdk-items.js";

const weatherCall = { type: "tool_call", id: "call_1", name: "weather", input: { city: "Oslo" } };
const weatherResult = { type: "tool_result", toolCallId: "call_1", name: "weather", content: "rain", isError: false };

describe("a request reads the same in every format", () => {
  const expected = {
    system: "Be brief.",
    messages: [
      { role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] },
      { role: "assistant", content: [weatherCall] },
      { role: "user", content: [{ ...weatherResult, name: "" }] },
    ],
  };

  test("Chat Completions messages (system, assistant tool_calls, tool results)", () => {
    const messages = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Oslo?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "rain" },
    ];
    assert.deepEqual(requestMessages(messages), expected);
  });

  test("Responses API items (developer text, function_call, function_call_output)", () => {
    const items = [
      { role: "developer", content: [{ type: "input_text", text: "Be brief." }] },
      { role: "user", content: [{ type: "input_text", text: "Weather in Oslo?" }] },
      { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output", call_id: "call_1", output: "rain" },
    ];
    assert.deepEqual(requestMessages(items), expected);
  });

  test("a plain string input is the user's message", () => {
    assert.deepEqual(requestMessages("hi"), {
      system: "",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
  });
});

describe("a reply reads the same in every format", () => {
  test("a chat completion: its first choice's text and tool calls, and its usage", () => {
    const completion = {
      object: "chat.completion",
      choices: [
        {
          message: {
            role: "assistant",
            content: "Checking.",
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 20 } },
    };
    assert.deepEqual(replyBlocks([completion]), [{ type: "text", text: "Checking." }, weatherCall]);
    assert.deepEqual(outputUsage([completion]), { inputTokens: 50, outputTokens: 7, cacheReadTokens: 20 });
  });

  test("a Responses API response: reasoning, message text and function calls, and its usage", () => {
    const response = {
      id: "resp_1",
      output: [
        { type: "reasoning", summary: [{ type: "summary_text", text: "Need weather." }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking." }] },
        { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
      ],
      usage: { input_tokens: 50, output_tokens: 7, input_tokens_details: { cached_tokens: 20 } },
    };
    assert.deepEqual(replyBlocks(response), [
      { type: "reasoning", text: "Need weather." },
      { type: "text", text: "Checking." },
      weatherCall,
    ]);
    assert.deepEqual(outputUsage(response), { inputTokens: 50, outputTokens: 7, cacheReadTokens: 20 });
  });
});

describe("usage and arguments in odd shapes", () => {
  test("a turn span's usage keeps cache reads and writes; no token counts is no usage", () => {
    assert.deepEqual(
      usageOf({ input_tokens: 10, output_tokens: 2, cached_input_tokens: 4, cache_write_input_tokens: 1 }),
      { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 1 },
    );
    assert.equal(usageOf({ requests: 1 }), undefined);
    assert.equal(usageOf("lots"), undefined);
  });

  test("arguments that are not a JSON object are kept under input", () => {
    assert.deepEqual(argumentsOf("not json"), { input: "not json" });
    assert.deepEqual(argumentsOf("[1,2]"), { input: [1, 2] });
    assert.deepEqual(argumentsOf(undefined), {});
  });
});

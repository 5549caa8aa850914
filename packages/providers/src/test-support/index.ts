// What other packages' tests use of the providers' test support: `@harnessx/providers/test-support` (source only, never built).
export { FakeServer, jsonReply, type FakeReply, type RecordedRequest, type Responder } from "./server.js";
export { anthropicErrorReply, anthropicTurn, type AnthropicTurn } from "./anthropic-wire.js";
export { openAIErrorReply, openAITurn, type OpenAITurn } from "./openai-wire.js";

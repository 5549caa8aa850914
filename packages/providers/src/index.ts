export { OpenAIProvider, type OpenAIProviderOptions } from "./openai/provider.js";
export { AnthropicProvider, type AnthropicProviderOptions } from "./anthropic/provider.js";
export { ANTHROPIC_VENDOR } from "./anthropic/vendor.js";
export type { OpenAIChatCompletions, OpenAIClient } from "./openai/client.js";
export type { AnthropicClient, AnthropicThinking, AnthropicThinkingDisplay } from "./anthropic/client.js";
export { retryAfterMs } from "./errors.js";

export { OpenAIProvider, type OpenAIProviderOptions } from "./openai/provider.js";
export { AnthropicProvider, type AnthropicProviderOptions } from "./anthropic/provider.js";
export { ANTHROPIC_VENDOR } from "./anthropic/messages.js";
export { retryAfterMs } from "./errors.js";

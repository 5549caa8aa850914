// Prompt caching as a built-in extension on core's public entries; the `prompt_cache_break`
// event's types live in `@harnessx/core/extension`, beside the span mapping that reads them.
export { promptCacheExtension, type PromptCacheOptions } from "./prompt-cache-extension.js";

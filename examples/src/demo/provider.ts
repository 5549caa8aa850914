import { ScriptedProvider, type ModelProvider } from "harnessx";
import { demoScript } from "./script.js";

/** The embedded model's price, per million tokens (a real model is priced from genai-prices' table). */
export const DEMO_PRICES = { "scripted-demo": { inputPerMTok: 3, outputPerMTok: 15 } } as const;

/**
 * The demo's model: a real one when the environment names it (any
 * OpenAI-compatible server, or Anthropic), else the embedded script.
 */
export async function demoProvider(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ provider: ModelProvider; label: string }> {
  if (env.OPENAI_BASE_URL || env.OPENAI_API_KEY) {
    const { OpenAIProvider } = await import("harnessx");
    const provider = new OpenAIProvider({
      apiKey: env.OPENAI_API_KEY,
      baseURL: env.OPENAI_BASE_URL,
      model: env.OPENAI_MODEL,
    });
    return {
      provider,
      label: `OpenAI-compatible model ${provider.defaultModel} at ${env.OPENAI_BASE_URL ?? "api.openai.com"}`,
    };
  }
  if (env.ANTHROPIC_API_KEY) {
    const { AnthropicProvider } = await import("harnessx");
    const provider = new AnthropicProvider({
      apiKey: env.ANTHROPIC_API_KEY,
      baseURL: env.ANTHROPIC_BASE_URL,
      model: env.ANTHROPIC_MODEL,
    });
    return { provider, label: `Anthropic model ${provider.defaultModel}` };
  }
  return {
    provider: new ScriptedProvider(demoScript(), { model: "scripted-demo" }),
    label: "the embedded scripted model (no key, no network)",
  };
}

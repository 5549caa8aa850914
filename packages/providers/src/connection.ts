import { ConfigError } from "@harnessx/core";

/** Environment variables one vendor's adapter reads when an option is not given. */
export interface ConnectionEnv {
  apiKey: string;
  baseURL: string;
  model: string;
}

export interface ConnectionOptions {
  apiKey?: string;
  baseURL?: string;
  model?: string;
}

/** How a provider makes its SDK's client when the app gave none (every vendor's SDK takes these). */
export interface ClientSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
  timeoutMs: number | undefined;
}

export interface Connection {
  /** Undefined only when the vendor's SDK may find credentials itself (`keyRequired: false`). */
  apiKey: string | undefined;
  baseURL: string | undefined;
  model: string;
}

/**
 * Fills key, server and model from the options, then the environment. A
 * server named without a key gets a placeholder key (local servers such as
 * llama.cpp or Ollama need none). When `keyRequired`, the vendor's own API
 * without a key is a configuration error, raised now rather than at the first
 * request; otherwise the SDK's own credential chain gets its chance.
 */
export function resolveConnection(
  vendor: string,
  env: ConnectionEnv,
  defaultModel: string,
  options: ConnectionOptions,
  keyRequired: boolean,
): Connection {
  const read = (name: string) => {
    const value = process.env[name]?.trim();
    return value ? value : undefined;
  };
  const baseURL = options.baseURL ?? read(env.baseURL);
  const apiKey = options.apiKey ?? read(env.apiKey) ?? (baseURL ? "no-key" : undefined);
  if (apiKey === undefined && keyRequired) {
    throw new ConfigError(
      `${vendor} needs an API key: pass { apiKey } or set ${env.apiKey}` +
        ` (or point { baseURL } / ${env.baseURL} at a compatible server that needs none)`,
    );
  }
  return { apiKey, baseURL, model: options.model ?? read(env.model) ?? defaultModel };
}

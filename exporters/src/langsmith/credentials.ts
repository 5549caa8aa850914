import { Client, type ClientConfig } from "langsmith";

/**
 * Whether a client built from `config` would authenticate: an `apiKey` given, or one the SDK
 * finds itself (`LANGSMITH_API_KEY`, `LANGCHAIN_API_KEY`, a LangSmith CLI login profile).
 * Without one every upload is refused, so a push stops before its first request instead.
 */
export function hasLangSmithCredentials(config: ClientConfig = {}): boolean {
  if (config.apiKey?.trim()) return true;
  const found = Client.getDefaultClientConfig({
    profile: config.profile,
    profileConfigPath: config.profileConfigPath,
    preferProfileAuth: config.preferProfileAuth,
  });
  return Boolean(found.apiKey?.trim() || found.oauthAccessToken || found.profileAuth);
}

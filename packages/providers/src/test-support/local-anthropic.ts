import { after, before } from "node:test";
import { AnthropicProvider } from "../anthropic/provider.js";
import { FakeServer } from "./server.js";

/** Starts a fake Anthropic server before the calling file's tests (closed after them) and hands it, with a provider pointed at it, to `use`. */
export function useLocalAnthropic(use: (server: FakeServer, provider: AnthropicProvider) => void): void {
  let server: FakeServer | undefined;
  before(async () => {
    server = await FakeServer.start();
    use(server, new AnthropicProvider({ baseURL: server.url, apiKey: "sk-ant-test" }));
  });
  after(() => server?.close());
}

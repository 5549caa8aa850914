// @harnessx/providers installed without the provider SDKs (optional peers): the package loads, and
// a provider used without its SDK fails with MissingPackageError naming the package to install.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { isolatedPackages, runModule } from "../support/isolated-package.js";

const app = isolatedPackages(["packages/providers"], ["openai", "@anthropic-ai/sdk"]);
after(() => rmSync(app, { recursive: true, force: true }));

/** Calls one provider's `complete`, then runs an agent on it; prints what each failed with. */
const script = (provider: string) => `
  import { Agent, HarnessError } from "@harnessx/core";
  import { ${provider} } from "@harnessx/providers";
  const describe = (e) => ({ harness: e instanceof HarnessError, name: e?.name, code: e?.code, message: e?.message });
  const provider = new ${provider}({ apiKey: "sk-unused", baseURL: "http://127.0.0.1:9/v1" });
  const direct = await provider.complete({ system: "", messages: [], tools: [], maxTokens: 16 }).then(() => "answered", describe);
  const streamed = await (async () => { for await (const _ of provider.stream({ system: "", messages: [], tools: [], maxTokens: 16 })); })().then(() => "answered", describe);
  const agent = new Agent({ provider });
  const result = await agent.run("hello");
  await agent.close();
  console.log(JSON.stringify({ direct, streamed, run: { status: result.status, error: describe(result.error), cause: describe(result.error?.cause) } }));
`;

const providers: Array<[provider: string, pkg: string, range: string]> = [
  ["OpenAIProvider", "openai", "^6.30.1"],
  ["AnthropicProvider", "@anthropic-ai/sdk", "^1.14.0"],
];
for (const [provider, pkg, range] of providers) {
  test(`${provider} without "${pkg}": the package loads; a request, a stream and an agent's run fail with MissingPackageError`, () => {
    const out = runModule(app, script(provider));
    assert.equal(out.status, 0, out.stderr);
    const seen = JSON.parse(out.stdout) as {
      direct: unknown;
      streamed: unknown;
      run: { status: string; error: { code: string; message: string }; cause: unknown };
    };
    const expected = {
      harness: true,
      name: "MissingPackageError",
      code: "missing_package",
      message: `${provider} needs the "${pkg}" package: npm install ${pkg}@${range}`,
    };
    assert.deepEqual(seen.direct, expected);
    assert.deepEqual(seen.streamed, expected);
    // The engine reports any provider failure as a ProviderError (a fallback chain moves on); the cause is kept.
    assert.equal(seen.run.status, "failed");
    assert.equal(seen.run.error.code, "provider_bad_response");
    assert.ok(seen.run.error.message.endsWith(expected.message), seen.run.error.message);
    assert.deepEqual(seen.run.cause, expected);
  });
}

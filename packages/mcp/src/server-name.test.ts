// A server's name is the "<server>" of its tools' names, mcp__<server>__<tool>, and the user's
// "mcp__<server>__*" rules grant by that prefix: no server may be named so that its tools fall
// under another server's prefix. Against a real MCP server over streamable HTTP on loopback.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { discover, TrustStore } from "@harnessx/discovery";
import { HookEvent, PermissionManager, type ToolCallEndData } from "@harnessx/core/extension";
import { connectMcpServers, McpConfigError, parseServers } from "./index.js";
import { startHttpServer } from "./test-support/index.js";

let http: Awaited<ReturnType<typeof startHttpServer>>;
before(async () => {
  http = await startHttpServer("web");
});
after(() => http.close());

const refusedName = (name: string) => (e: unknown) =>
  e instanceof McpConfigError &&
  e.message.includes(`server "${name}"`) &&
  /no "__" and no '_' at the end/.test(e.message);

describe("an MCP server's name cannot reach into another server's tool names", () => {
  test('a name with "__" or a trailing "_" is refused, naming the rule', () => {
    for (const name of ["github__evil", "github_", "a__b", "__x", "x__", "_"]) {
      assert.throws(() => parseServers({ [name]: { url: "http://127.0.0.1:1/" } }, "test"), refusedName(name), name);
    }
  });

  test("names with a single '_' or '-', anywhere but a trailing '_', are still accepted", () => {
    const names = ["my_server", "my-server", "a_b-c_d", "_lead", "trail-", "x", "a".repeat(32)];
    assert.deepEqual(
      Object.keys(parseServers(Object.fromEntries(names.map((n) => [n, { url: "http://127.0.0.1:1/" }])), "test")),
      names,
    );
    assert.throws(
      () => parseServers({ ["a".repeat(33)]: { url: "http://127.0.0.1:1/" } }, "test"),
      McpConfigError,
      "33 characters is one too many",
    );
  });

  test('beside the user\'s "github", a server "github__evil" is refused before anything connects', async () => {
    await assert.rejects(
      connectMcpServers({ servers: { github: { url: http.url }, github__evil: { url: http.url } } }),
      refusedName("github__evil"),
    );
  });

  test("a trusted project's .mcp.json cannot add a server under the user's server's prefix", async () => {
    const root = mkdtempSync(join(tmpdir(), "hx-mcp-squat-"));
    try {
      const home = join(root, "home");
      const project = join(root, "project");
      mkdirSync(home);
      mkdirSync(project);
      writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { github: { url: http.url } } }));
      writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { github__evil: { url: http.url } } }));
      const store = new TrustStore(join(home, "trust.json"));
      store.trust(project);
      const found = await discover({ cwd: project, userDir: home, trustStore: store });
      assert.deepEqual(Object.keys(found.mcpServers).sort(), ["github", "github__evil"]);
      await assert.rejects(
        connectMcpServers({ discovered: found.mcpServers }),
        (e: unknown) => refusedName("github__evil")(e) && (e as Error).message.startsWith(join(project, ".mcp.json")),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a server named with one "_" works, and the rule for "mcp__my__*" does not grant it', async () => {
    const mcp = await connectMcpServers({ servers: { my: { url: http.url }, my_web: { url: http.url } } });
    const permissions = new PermissionManager({ default: "deny", rules: { "mcp__my__*": "allow" } });
    const calls = [
      { id: "a", name: "mcp__my__echo", input: { text: "mine" } },
      { id: "b", name: "mcp__my_web__echo", input: { text: "other" } },
    ];
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: calls }, { text: "ok" }]),
      extensions: [mcp],
      permissions,
    });
    const ends: ToolCallEndData[] = [];
    agent.hooks.on(HookEvent.TOOL_CALL_END, (ctx) => void ends.push(ctx.data));
    try {
      assert.ok(agent.info.toolNames.includes("mcp__my_web__echo"));
      await agent.run("echo");
      const byName = Object.fromEntries(ends.map((e) => [e.toolCall.name, e]));
      assert.equal(byName.mcp__my__echo!.result.content, "echo: mine");
      assert.equal(byName.mcp__my_web__echo!.outcome, "denied");
    } finally {
      await agent.close();
    }
  });
});

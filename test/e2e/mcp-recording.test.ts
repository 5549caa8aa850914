// A run that used MCP tools is recorded with the server's handshake and MCP span attributes,
// and replays with the server gone: the recorded results answer.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { connectMcpServers } from "@harnessx/mcp";
import { startHttpServer } from "@harnessx/mcp/test-support";
import { FlightRecorderExtension, openRecording } from "@harnessx/recorder";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-mcp-e2e-");
after(() => cli.cleanup());

describe("MCP in the recording", () => {
  test("handshake and MCP attributes are recorded; replay works with the server stopped", async () => {
    const server = await startHttpServer("web");
    let runId: string;
    try {
      const mcp = await connectMcpServers({ servers: { web: { url: server.url } } });
      const provider = new ScriptedProvider([
        { toolCalls: [{ name: "mcp__web__add", input: { a: 2, b: 3 } }] },
        { toolCalls: [{ name: "mcp__web__echo", input: { text: "five" } }] },
        { text: "2 + 3 = 5" },
      ]);
      const agent = new Agent({
        provider,
        name: "mcp-user",
        extensions: [new FlightRecorderExtension({ dir: cli.store }), mcp],
      });
      const result = await agent.run("add 2 and 3");
      assert.equal(result.status, "completed", result.error?.message);
      runId = result.runId;
      await agent.close();
    } finally {
      await server.close();
    }

    await using recording = await openRecording(runId, { storeDir: cli.store });
    const events = await recording.readEvents({ payloads: true });
    const connected = events.find((e) => e.kind === "custom" && e.attrs.name === "mcp.connected");
    const data = (
      connected?.payload as
        | {
            data?: {
              server?: string;
              serverName?: string;
              serverVersion?: string;
              tools?: string[];
              toolsSha256?: string;
            };
          }
        | undefined
    )?.data;
    assert.deepEqual([data?.server, data?.serverName, data?.serverVersion], ["web", "web", "1.2.3"]);
    assert.ok(data?.tools?.includes("add") && /^[0-9a-f]{64}$/.test(data.toolsSha256 ?? ""));
    const spans = await recording.spans();
    assert.deepEqual(
      spans.find((s) => s.kind === "run")?.attrs["mcp.servers"],
      ["web"],
      "the run span lists the connected servers",
    );
    const tool = spans.find((s) => s.name === "execute_tool mcp__web__add");
    assert.equal(tool?.attrs["mcp.method.name"], "tools/call");
    assert.equal(tool?.attrs["network.transport"], "tcp");
    assert.equal(tool?.attrs["mcp.server.name"], "web");
    assert.match(String(tool?.attrs["mcp.session.id"]), /^[0-9a-f-]{36}$/);

    const replay = await cli.trace("--json", "replay", runId);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
    const report = JSON.parse(replay.stdout);
    assert.equal(report.reproduced, true, replay.stdout);
    assert.equal(report.replayedCalls, 3);
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import type { Extension } from "@harnessx/core/extension";
import { LangSmithExtension } from "./langsmith/extension.js";
import { OpenTelemetryExtension } from "./otel/extension.js";
import { setupTelemetry } from "./otel-setup/setup.js";
import { startLangSmithServer, type LangSmithServer } from "./test-support/langsmith-server.js";
import { startOtlpReceiver, type OtlpReceiver } from "./test-support/otlp-receiver.js";

const SECRETS = [
  "hunter2-Pa55",
  "sk-proj-Qw3rTy7UiOp9AsDfGhJkLzXcVbNm1234",
  `ghp_${"Zx9".repeat(12)}`,
  "alice.private@example.com",
];

/** A run with a secret in the user input, a tool's input, its result, a tool error and the final reply. */
async function leakyRun(extension: Extension): Promise<void> {
  const lookup = tool({
    name: "lookup",
    description: "lookup",
    execute: () => ({ status: "ok", body: `password=${SECRETS[0]} token ${SECRETS[1]}` }),
  });
  const broken = tool({
    name: "broken",
    description: "broken",
    execute: () => {
      throw new Error(`upstream refused key ${SECRETS[2]}`);
    },
  });
  const provider = new ScriptedProvider([
    {
      toolCalls: [
        { id: "c1", name: "lookup", input: { apiKey: SECRETS[1], user: SECRETS[3] } },
        { id: "c2", name: "broken", input: {} },
      ],
    },
    { text: `Done; I used ${SECRETS[1]} for ${SECRETS[3]}.` },
  ]);
  const agent = new Agent({ provider, tools: [lookup, broken], extensions: [extension] });
  await agent.run(`my password is ${SECRETS[0]}, key ${SECRETS[1]}`);
  await agent.close();
}

function assertNoSecret(sent: string, where: string): void {
  for (const secret of SECRETS) assert.ok(!sent.includes(secret), `${where} carried ${secret}`);
}

describe("exporters send content only through the agent's redaction policy", () => {
  let receiver: OtlpReceiver;
  let langsmith: LangSmithServer;
  before(async () => {
    receiver = await startOtlpReceiver();
    langsmith = await startLangSmithServer();
  });
  after(async () => {
    await receiver.close();
    await langsmith.close();
  });

  test("OpenTelemetry spans with captureContent carry no secret, and still carry the content", async () => {
    const telemetry = setupTelemetry({ serviceName: "redaction-test", url: receiver.url });
    await leakyRun(new OpenTelemetryExtension({ telemetry, captureContent: true }));
    await telemetry.shutdown();
    const sent = receiver.bodies.join("\n");
    assert.match(sent, /gen_ai\.tool\.call\.result/);
    assert.match(sent, /\[REDACTED/);
    assertNoSecret(sent, "an OTLP request");
  });

  test("the agent's and model's names reach neither OTLP span names nor LangSmith run names or metadata", async () => {
    const named = async (extension: Extension) => {
      const agent = new Agent({
        name: `support ${SECRETS[3]}`,
        model: `gpt-4o ${SECRETS[1]}`,
        provider: new ScriptedProvider([{ toolCalls: [{ name: "lookup", input: {} }] }, { text: "ok" }]),
        tools: [tool({ name: "lookup", description: "lookup", execute: () => "ok" })],
        extensions: [extension],
      });
      await agent.run("hi");
      await agent.close();
    };
    const telemetry = setupTelemetry({ serviceName: "names-test", url: receiver.url });
    const before = receiver.bodies.length;
    await named(new OpenTelemetryExtension({ telemetry }));
    await telemetry.shutdown();
    const spans = receiver.bodies.slice(before).join("\n");
    assert.match(spans, /invoke_agent support \[REDACTED:email\]/);
    assertNoSecret(spans, "an OTLP request");
    const runsBefore = langsmith.runs.size;
    await named(
      new LangSmithExtension({
        clientConfig: { apiUrl: langsmith.url, apiKey: "test-key" },
        projectName: "names-test",
      }),
    );
    const runs = [...langsmith.runs.values()].slice(runsBefore);
    assert.ok(
      runs.some((run) => run.name === "support [REDACTED:email]"),
      JSON.stringify(runs.map((run) => run.name)),
    );
    assertNoSecret(JSON.stringify(runs), "a LangSmith run");
  });

  test("LangSmith runs carry no secret in inputs, outputs or errors", async () => {
    await leakyRun(
      new LangSmithExtension({
        clientConfig: { apiUrl: langsmith.url, apiKey: "test-key" },
        projectName: "redaction-test",
      }),
    );
    const sent = JSON.stringify([...langsmith.runs.values()]);
    assert.ok(langsmith.runs.size >= 4);
    assert.match(sent, /\[REDACTED/);
    assertNoSecret(sent, "a LangSmith run");
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { FlightRecorderExtension, readRun, runDirOf } from "../index.js";
import { allStoreBytes } from "../test-support/store-bytes.js";
import { tempDir } from "../../../test/support/system.js";

const SECRETS = {
  toolInput: "sk-proj-INPUTSECRET0123456789abcdef",
  toolResult: "ghp_RESULTSECRET0123456789abcdefghijklmnop",
  modelReply: "AKIAREPLYSECRET12345",
  header: "HEADERSECRETVALUE-9f8e7d6c5b4a",
  email: "alice.secret@example.com",
  card: "4111 1111 1111 1111",
};

describe("secrets never reach the store", () => {
  test("a secret in a tool input, a tool result, a model reply and a header is absent from every byte", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const fetcher = tool({
        name: "fetch_url",
        description: "fetches",
        inputSchema: { type: "object", properties: { url: { type: "string" }, apiKey: { type: "string" } } },
        execute: () => ({
          status: 200,
          headers: { Authorization: `Bearer ${SECRETS.header}`, "x-request-id": "abc" },
          body: `token is ${SECRETS.toolResult}; contact ${SECRETS.email}; card ${SECRETS.card}; ${"padding ".repeat(20_000)}`,
        }),
      });
      const provider = new ScriptedProvider([
        {
          toolCalls: [
            { id: "c1", name: "fetch_url", input: { url: "https://example.com", apiKey: SECRETS.toolInput } },
          ],
        },
        { text: `The key you want is ${SECRETS.modelReply}. Pass "Authorization: Bearer ${SECRETS.header}".` },
      ]);
      const recorder = new FlightRecorderExtension({ dir, inlinePayloadBytes: 4096 });
      const agent = new Agent({ provider, tools: [fetcher], extensions: [recorder] });
      const result = await agent.run(`use my key ${SECRETS.toolInput} please`);
      await agent.close();
      assert.equal(result.status, "completed");

      const files = await allStoreBytes(dir);
      assert.ok(
        files.some((f) => f.path.includes("artifacts") && f.path.endsWith("(decompressed)")),
        "a large payload went to an artifact",
      );
      for (const [where, secret] of Object.entries(SECRETS)) {
        for (const file of files) assert.ok(!file.text.includes(secret), `${where} secret found in ${file.path}`);
      }
      const { events } = await readRun(runDirOf(dir, result.runId));
      const end = events.find((e) => e.kind === "tool_call_end")!;
      assert.ok(end.redacted!.includes("payload.toolCall.input.apiKey"), `paths: ${end.redacted}`);
      assert.ok(end.redacted!.includes("payload.rawResult.headers.Authorization"), `paths: ${end.redacted}`);
      assert.ok(end.payloadRef, "the big result is referenced, not inline");
      const reply = events.filter((e) => e.kind === "llm_response").pop()!;
      assert.ok(
        reply.redacted?.some((p) => p.startsWith("payload.response.content.0.text")),
        `reply paths: ${reply.redacted}`,
      );
    } finally {
      cleanup();
    }
  });

  test("the agent's policy is configurable, the recorder applies it, and a custom redact function runs last", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({
        dir,
        customRedact: (event) =>
          event.kind === "agent_start"
            ? {
                ...event,
                attrs: { ...event.attrs, agent: "hidden" },
                redacted: [...(event.redacted ?? []), "attrs.agent"],
              }
            : event,
      });
      const lookup = tool({
        name: "lookup",
        description: "",
        execute: () => ({ employeeId: "E-77", note: "see TICKET-1234" }),
      });
      const provider = new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "lookup", input: {} }] }, { text: "ok" }]);
      const agent = new Agent({
        provider,
        tools: [lookup],
        extensions: [recorder],
        redact: { extraKeys: ["employeeId"], extraPatterns: [{ name: "ticket", pattern: /\bTICKET-\d{4}\b/g }] },
      });
      const result = await agent.run("go");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      const text = JSON.stringify(events);
      assert.ok(!text.includes("E-77"), "extra key redacted, also inside the tool result's JSON text");
      assert.ok(!text.includes("TICKET-1234"), "extra pattern redacted");
      assert.ok(text.includes("[REDACTED:ticket]"), "pattern label written");
      assert.equal(events[0]!.attrs.agent, "hidden");
      assert.deepEqual(events[0]!.redacted, ["attrs.agent"]);
    } finally {
      cleanup();
    }
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { DEFAULT_REDACTION_RULES, FlightRecorderExtension, readRun, runDirOf, Sanitizer } from "../index.js";
import { allStoreBytes } from "../test-support/store-bytes.js";
import { tempDir } from "../test-support/system.js";

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
          body: `token is ${SECRETS.toolResult}; contact ${SECRETS.email}; card ${SECRETS.card}; ` + "padding ".repeat(20_000),
        }),
      });
      const provider = new ScriptedProvider([
        { toolCalls: [{ id: "c1", name: "fetch_url", input: { url: "https://example.com", apiKey: SECRETS.toolInput } }] },
        { text: `The key you want is ${SECRETS.modelReply}. Pass "Authorization: Bearer ${SECRETS.header}".` },
      ]);
      const recorder = new FlightRecorderExtension({ dir, inlinePayloadBytes: 4096 });
      const agent = new Agent({ provider, tools: [fetcher], extensions: [recorder] });
      const result = await agent.run(`use my key ${SECRETS.toolInput} please`);
      await agent.close();
      assert.equal(result.status, "completed");

      const files = await allStoreBytes(dir);
      assert.ok(files.some((f) => f.path.includes("artifacts") && f.path.endsWith("(decompressed)")), "a large payload went to an artifact");
      for (const [where, secret] of Object.entries(SECRETS)) {
        for (const file of files) assert.ok(!file.text.includes(secret), `${where} secret found in ${file.path}`);
      }
      const { events } = await readRun(runDirOf(dir, result.runId));
      const end = events.find((e) => e.kind === "tool_call_end")!;
      assert.ok(end.redacted!.includes("payload.toolCall.input.apiKey"), `paths: ${end.redacted}`);
      assert.ok(end.redacted!.includes("payload.rawResult.headers.Authorization"), `paths: ${end.redacted}`);
      assert.ok(end.payloadRef, "the big result is referenced, not inline");
      const reply = events.filter((e) => e.kind === "llm_response").pop()!;
      assert.ok(reply.redacted?.some((p) => p.startsWith("payload.response.content.0.text")), `reply paths: ${reply.redacted}`);
    } finally {
      cleanup();
    }
  });

  test("rules are configurable and a custom redact function runs last", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({
        dir,
        redact: {
          extraKeys: ["employeeId"],
          extraPatterns: [{ name: "ticket", pattern: /\bTICKET-\d{4}\b/g }],
          custom: (event) => (event.kind === "agent_start" ? { ...event, attrs: { ...event.attrs, agent: "hidden" }, redacted: [...(event.redacted ?? []), "attrs.agent"] } : event),
        },
      });
      const lookup = tool({ name: "lookup", description: "", execute: () => ({ employeeId: "E-77", note: "see TICKET-1234" }) });
      const provider = new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "lookup", input: {} }] }, { text: "ok" }]);
      const agent = new Agent({ provider, tools: [lookup], extensions: [recorder] });
      const result = await agent.run("go");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      const text = JSON.stringify(events);
      assert.ok(!text.includes("E-77"), "extra key redacted, also inside the tool result's JSON text");
      assert.ok(!text.includes("TICKET-1234"), "extra pattern redacted");
      assert.ok(text.includes("[REDACTED:ticket]"), "pattern label written");
      assert.equal(events[0].attrs.agent, "hidden");
      assert.deepEqual(events[0].redacted, ["attrs.agent"]);
    } finally {
      cleanup();
    }
  });
});

describe("payloads serialize safely", () => {
  test("errors, cycles, BigInt, binary and Maps become JSON without throwing", () => {
    const sanitizer = new Sanitizer(DEFAULT_REDACTION_RULES);
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const error = Object.assign(new Error("boom"), { code: "E_BOOM", status: 503 });
    const out = sanitizer.sanitize({ cyclic, error, big: 10n ** 20n, bytes: new Uint8Array([1, 2, 3]), map: new Map<string, unknown>([["password", "x"], ["ok", 1]]), fn: () => 1, nan: NaN }, "payload", []) as Record<string, any>;
    assert.equal(out.cyclic.self, "[Circular]");
    assert.equal(out.error.message, "boom");
    assert.equal(out.error.code, "E_BOOM");
    assert.equal(out.error.status, 503);
    assert.equal(out.error.name, "Error");
    assert.match(out.error.stack, /boom/);
    assert.equal(out.big, "100000000000000000000");
    assert.deepEqual(out.bytes, { type: "Uint8Array", bytes: 3, base64: "AQID" });
    assert.deepEqual(out.map, { password: "[REDACTED]", ok: 1 });
    assert.equal("fn" in out, false);
    assert.equal(out.nan, "NaN");
    assert.doesNotThrow(() => JSON.stringify(out));
  });

  test("toJson (the recorder's fast path) gives the same data and paths as sanitize, cycles included", () => {
    const sanitizer = new Sanitizer(DEFAULT_REDACTION_RULES);
    const error = Object.assign(new Error("boom"), { code: "E_BOOM" });
    const value = { error, big: 2n ** 70n, map: new Map([["apiKey", "k"]]), list: [{ token: "t", note: "mail bob@example.com" }], bytes: new Uint8Array([1]) };
    const slowPaths: string[] = [];
    const fastPaths: string[] = [];
    const slow = sanitizer.sanitize(value, "payload", slowPaths);
    const fast = JSON.parse(sanitizer.toJson(value, "payload", fastPaths)!);
    assert.deepEqual(fast, slow);
    assert.deepEqual(fastPaths.sort(), slowPaths.sort());
    assert.deepEqual(fastPaths.sort(), ["payload.list.0.note", "payload.list.0.token", "payload.map.apiKey"]);
    const cyclic: Record<string, unknown> = { password: "p" };
    cyclic.again = cyclic;
    const paths: string[] = [];
    assert.deepEqual(JSON.parse(sanitizer.toJson(cyclic, "payload", paths)!), { password: "[REDACTED]", again: "[Circular]" });
    assert.deepEqual(paths, ["payload.password"]);
  });

  test("the plain-data fast path still finds secrets in keys, in text and in embedded JSON", () => {
    const sanitizer = new Sanitizer(DEFAULT_REDACTION_RULES);
    const cases: Array<[unknown, string]> = [
      [{ input: { api_key: "zzz-plain-value" } }, "zzz-plain-value"],
      [{ text: "login with password=hunter2x now" }, "hunter2x"],
      [{ body: JSON.stringify({ nested: { "x-api-key": "abc123def" } }) }, "abc123def"],
      [{ note: "write to carol@example.org" }, "carol@example.org"],
      [{ header: "Authorization: Basic dXNlcjpwYXNz" }, "dXNlcjpwYXNz"],
    ];
    for (const [value, secret] of cases) {
      const paths: string[] = [];
      const json = sanitizer.toJson(value, "payload", paths, true)!;
      assert.ok(!json.includes(secret), `${secret} leaked: ${json}`);
      assert.ok(paths.length > 0, `paths listed for ${secret}`);
    }
    const clean: string[] = [];
    assert.equal(sanitizer.toJson({ maxTokens: 4096, id: "call_12345", usage: { inputTokens: 3 } }, "payload", clean, true), '{"maxTokens":4096,"id":"call_12345","usage":{"inputTokens":3}}');
    assert.deepEqual(clean, []);
  });

  test("numeric token counts are not mistaken for secrets; card numbers need a valid checksum", () => {
    const sanitizer = new Sanitizer(DEFAULT_REDACTION_RULES);
    const paths: string[] = [];
    const out = sanitizer.sanitize({ maxTokens: 4096, usage: { inputTokens: 5 }, order: "1234 5678 9012 3456", card: "4111111111111111" }, "p", paths) as Record<string, any>;
    assert.equal(out.maxTokens, 4096);
    assert.equal(out.usage.inputTokens, 5);
    assert.equal(out.order, "1234 5678 9012 3456");
    assert.equal(out.card, "[REDACTED:card]");
    assert.deepEqual(paths, ["p.card"]);
  });
});

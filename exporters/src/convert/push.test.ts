import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pushToOtlp } from "./push.js";
import { pushToLangSmith } from "../langsmith/push.js";
import { ExporterError } from "../errors.js";
import { recordScenario, type LoadedRecording } from "../test-support/recording.js";
import { refusedUrl, startOtlpReceiver } from "../test-support/otlp-receiver.js";
import { startLangSmithServer } from "../test-support/langsmith-server.js";

describe("a recording pushed to a backend (the CLI's trace push)", () => {
  let recording: LoadedRecording;
  let cleanup: () => void;
  before(async () => ({ recording, cleanup } = await recordScenario()));
  after(() => cleanup());

  test("to OTLP/HTTP through OpenTelemetry's export delegate and serializer: every span arrives", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const result = await pushToOtlp(recording.events, {
        ...recording.options,
        url: receiver.url,
        serviceName: "pushed",
      });
      assert.deepEqual(result, { sent: 9, failed: 0 });
      assert.equal(receiver.spans.length, 9);
      assert.ok(receiver.spans.every((s) => s.serviceName === "pushed"));
      assert.equal(receiver.spans.filter((s) => s.parentSpanId === undefined).length, 1);
    } finally {
      await receiver.close();
    }
  });

  test("to an OTLP endpoint that refuses: every span counted as failed", async () => {
    const result = await pushToOtlp(recording.events, {
      ...recording.options,
      url: await refusedUrl(),
      timeoutMs: 500,
    });
    assert.deepEqual(result, { sent: 0, failed: 9 });
  });

  test("to LangSmith through the real Client: the run tree arrives", async () => {
    const server = await startLangSmithServer();
    try {
      const result = await pushToLangSmith(recording.events, {
        ...recording.options,
        clientConfig: { apiUrl: server.url, apiKey: "k" },
        projectName: "pushed",
      });
      assert.deepEqual(result, { sent: 9, failed: 0 });
      const runs = [...server.runs.values()];
      assert.equal(runs.length, 9);
      const root = runs.find((r) => !r.parent_run_id)!;
      assert.equal(root.name, "support");
      assert.deepEqual(runs.map((r) => r.run_type).sort(), [
        "chain",
        "llm",
        "llm",
        "llm",
        "tool",
        "tool",
        "tool",
        "tool",
        "tool",
      ]);
    } finally {
      await server.close();
    }
  });

  test("to LangSmith without an API key: refused with a typed error before any request", async () => {
    const server = await startLangSmithServer();
    const saved = {
      LANGSMITH_API_KEY: process.env.LANGSMITH_API_KEY,
      LANGCHAIN_API_KEY: process.env.LANGCHAIN_API_KEY,
    };
    delete process.env.LANGSMITH_API_KEY;
    delete process.env.LANGCHAIN_API_KEY;
    try {
      await assert.rejects(
        pushToLangSmith(recording.events, {
          ...recording.options,
          clientConfig: { apiUrl: server.url, profileConfigPath: "/nonexistent/langsmith-config.json" },
        }),
        (err: unknown) =>
          err instanceof ExporterError &&
          err.code === "langsmith_credentials_missing" &&
          /LANGSMITH_API_KEY/.test(err.message),
      );
      assert.deepEqual(server.paths, []);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
      await server.close();
    }
  });

  test("to a LangSmith endpoint that fails: runs counted as failed, bounded by the time limit", async () => {
    const server = await startLangSmithServer("status_500");
    try {
      const result = await pushToLangSmith(recording.events, {
        ...recording.options,
        clientConfig: { apiUrl: server.url, apiKey: "k" },
        timeoutMs: 1500,
      });
      assert.deepEqual(result, { sent: 0, failed: 9 });
    } finally {
      await server.close();
    }
  });
});

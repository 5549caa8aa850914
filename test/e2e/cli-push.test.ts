import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startLangSmithServer, startOtlpReceiver } from "@harnessx/exporters/test-support";
import { cliWorkspace, recordSupportRun, runTrace } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

let runId: string;

/** Hides any key or login profile of the machine running the tests from the langsmith SDK. */
const NO_LANGSMITH_CREDENTIALS = {
  LANGSMITH_API_KEY: "",
  LANGCHAIN_API_KEY: "",
  LANGSMITH_PROFILE: "",
  LANGSMITH_CONFIG_FILE: "/nonexistent/langsmith-config.json",
};

const trace = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runTrace(["--store", cli.store, ...args], { cwd: cli.work, env });

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
});
after(() => cli.cleanup());

describe("trace push sends a recorded run through the real exporters", () => {
  test("--otlp: the OpenTelemetry exporter delivers the run's spans; the report counts them", async () => {
    const receiver = await startOtlpReceiver("ok");
    try {
      const r = await trace(["--json", "push", runId, "--otlp", receiver.url]);
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout) as { sent: number; failed: number; unit: string };
      assert.equal(result.unit, "spans");
      assert.equal(result.failed, 0);
      assert.equal(result.sent, receiver.spans.length);
      const names = receiver.spans.map((s) => s.name).sort();
      assert.deepEqual(
        names.filter((n) => n.startsWith("execute_tool")),
        ["execute_tool flaky", "execute_tool lookup_customer", "execute_tool search"],
      );
      assert.equal(names.filter((n) => n.startsWith("chat")).length, 3);
      const text = await trace(["push", runId, "--otlp", receiver.url]);
      assert.match(text.stdout, /pushed run run_\w+ to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: 7 spans sent, 0 failed/);
    } finally {
      await receiver.close();
    }
  });
  test("--otlp to an endpoint answering 500: nothing sent, exit 5 with a one-line message", async () => {
    const receiver = await startOtlpReceiver("status_500");
    try {
      const r = await trace(["push", runId, "--otlp", receiver.url, "--timeout", "2"]);
      assert.equal(r.code, 5);
      assert.match(r.stderr.trim(), /^trace: could not deliver to .* within 2s: 0 spans sent, 7 failed/);
    } finally {
      await receiver.close();
    }
  });
  test("--langsmith without an API key: exit 2 naming LANGSMITH_API_KEY, and no request is made", async () => {
    const server = await startLangSmithServer("ok");
    try {
      const r = await trace(["push", runId, "--langsmith"], {
        ...NO_LANGSMITH_CREDENTIALS,
        LANGSMITH_ENDPOINT: server.url,
      });
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr.trim(),
        /^trace: --langsmith needs a LangSmith API key: set LANGSMITH_API_KEY \(nothing was sent\)$/,
      );
      assert.deepEqual(server.paths, [], "the endpoint was never contacted");
    } finally {
      await server.close();
    }
  });
  test("--langsmith: the langsmith Client (LANGSMITH_* variables) delivers chain, llm and tool runs", async () => {
    const server = await startLangSmithServer("ok");
    try {
      const r = await trace(["--json", "push", runId, "--langsmith", "--project", "incidents"], {
        LANGSMITH_ENDPOINT: server.url,
        LANGSMITH_API_KEY: "test-key",
        LANGSMITH_TRACING: "true",
      });
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout) as { sent: number; failed: number; unit: string };
      assert.equal(result.unit, "runs");
      assert.equal(result.failed, 0);
      const types = [...server.runs.values()].map((run) => run.run_type).sort();
      assert.deepEqual(types, ["chain", "llm", "llm", "llm", "tool", "tool", "tool"]);
      assert.equal(result.sent, server.runs.size);
    } finally {
      await server.close();
    }
  });
});

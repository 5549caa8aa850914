import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Agent,
  ArtifactStore,
  connectMcpServers,
  discover,
  FlightRecorderExtension,
  RecordingStore,
  ResultSpillExtension,
  type McpStdioServer,
  type RunResult,
} from "harnessx";
import { toOtlpJsonLines } from "harnessx/convert";
import { tracingFromEnv } from "./env-tracing.js";
import { recordFailingRun } from "./failing-run.js";
import { DEMO_PRICES, demoProvider } from "./provider.js";
import { exportSalesTool } from "./sales.js";
import { statusLine } from "../self-hosted/status-line.js";
import { printTimeline } from "./timeline.js";
import { demoTools } from "./tools.js";

export interface DemoOptions {
  /** Store root for the recording, spills and the bundle. Default `.harnessx`. */
  dir?: string;
  /** Where output lines go. Default console.log. */
  write?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** The demo's own user folder: one skill (`card-payments`) and one slash command (`/support`). */
export const DEMO_HOME = fileURLToPath(new URL("../../demo-home", import.meta.url));

/** The demo's MCP server (a shipping tracker), started over stdio (from its source under tsx when not built); optional: the demo runs without it. */
function shippingServer(): McpStdioServer {
  const built = fileURLToPath(new URL("./shipping-server.js", import.meta.url));
  const args = existsSync(built)
    ? [built]
    : ["--import", "tsx", fileURLToPath(new URL("./shipping-server.ts", import.meta.url))];
  return { command: process.execPath, args, optional: true };
}

export interface DemoOutcome {
  result: RunResult;
  /** The second run, recorded after the main one: it fails, for `trace ls --status failed` to find. */
  failed: RunResult;
  bundlePath: string;
  /** Written when no tracing endpoint is configured. */
  otlpPath?: string;
}

/**
 * The main job: an agent run with several tools (parallel, slow, failing, and
 * one whose huge result is spilled and queried with SQL), recorded by the
 * flight recorder, traced, and exported as an incident bundle. Then a second, short run of
 * the same agent that fails (`recordFailingRun`), for the README's "When a run goes wrong".
 */
export async function runDemo(options: DemoOptions = {}): Promise<DemoOutcome> {
  const write = options.write ?? ((line: string) => console.log(line));
  const env = options.env ?? process.env;
  const dir = options.dir ?? ".harnessx";
  const { provider, label } = await demoProvider(env);
  const system = "You are a support agent. Use the tools to answer; say plainly when something failed.";
  const tracing = await tracingFromEnv({ env, serviceName: "harnessx-demo" });
  write(`harnessx demo on ${label}`);
  const recorder = new FlightRecorderExtension({ dir });
  // Skills and commands are plain files; discover() makes them extensions (a project's would need trust).
  const declared = await discover({ userDir: DEMO_HOME });
  const mcp = await connectMcpServers({ servers: { shipping: shippingServer() } });
  const agent = new Agent({
    pricing: { prices: DEMO_PRICES },
    provider,
    name: "support-agent",
    system,
    tools: [...demoTools(), exportSalesTool()],
    extensions: [
      recorder,
      new ResultSpillExtension({ store: new ArtifactStore(dir) }),
      ...(tracing?.createExtensions() ?? []),
      ...declared.extensions,
      mcp,
      statusLine(),
    ],
  });
  let result: RunResult;
  let status: ReturnType<Agent["status"]> = [];
  try {
    printTimeline(agent, write);
    result = await agent.run(
      `/support ada@example.com "what is the status of my orders, please charge the open one, what's the weather in Lisbon, and what sold best this quarter?"`,
    );
    status = agent.status();
  } finally {
    await agent.close();
    await tracing?.shutdown();
  }
  write("");
  write(`status: ${result.status}${result.error ? ` (${result.error.message})` : ""}`);
  write(`answer: ${result.text}`);
  write(
    `usage: ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens over ${result.modelCalls} model calls`,
  );
  for (const line of status) write(`status [${line.extension}]: ${line.text}`);

  const store = new RecordingStore(dir);
  const runDir = store.runDir(result.runId);
  const bundle = await store.exportIncident({ runId: result.runId, reason: "demo run" });
  write(`recording: ${relative(process.cwd(), runDir) || runDir}`);
  write(
    `incident bundle: ${relative(process.cwd(), bundle.path)} (${bundle.events} events, ${bundle.artifacts} artifacts, ${bundle.bytes} bytes)`,
  );
  let otlpPath: string | undefined;
  if (tracing) {
    write(`traces exported to ${tracing.targets.join(" and ")}`);
  } else {
    const recording = await store.traceEvents(result.runId);
    otlpPath = join(runDir, "trace.otlp.jsonl");
    await writeFile(
      otlpPath,
      toOtlpJsonLines(recording.events, { agent: { name: recording.run.agent, sessionId: recording.run.sessionId } }),
    );
    write(
      `OTLP JSON Lines: ${relative(process.cwd(), otlpPath)} (set OTEL_EXPORTER_OTLP_ENDPOINT or LANGSMITH_API_KEY to export live)`,
    );
  }
  const failed = await recordFailingRun({ dir, system, tools: [...demoTools(), exportSalesTool()] });
  write(
    `failing run: ${failed.runId} ${failed.status}${failed.error ? ` (${failed.error.name}: ${failed.error.message})` : ""}; npx trace ls --status failed lists it`,
  );
  write(
    `next: npx trace show last-failed --errors   |   npx trace open last-failed   |   npx trace report ${result.runId.slice(0, 12)} -o report.html`,
  );
  return { result, failed, bundlePath: bundle.path, otlpPath };
}

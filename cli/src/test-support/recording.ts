/**
 * Recordings for the CLI's end-to-end tests: real Agent runs with the real FlightRecorderExtension
 * on a ScriptedProvider, written to a temporary store.
 */
import {
  Agent,
  ScriptedProvider,
  tool,
  type AgentOptions,
  type RunResult,
  type ScriptStep,
  type Tool,
} from "@harnessx/core";
import { contribution, defineExtension } from "@harnessx/core/extension";
import { ArtifactStore } from "@harnessx/artifacts";
import { FlightRecorderExtension, type FlightRecorderOptions } from "@harnessx/recorder";
import { ResultSpillExtension } from "@harnessx/spill";
import { tempDir as systemTempDir } from "../../../test/support/system.js";

export const SUPPORT_SYSTEM = "You are the support bot of Example Corp.";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The support agent's tools; `searchResult` lets a test change what search answers. */
export function supportTools(
  searchResult: (query: string) => string = (q) => `product_docs: ${q} costs $10 per seat`,
): Tool[] {
  return [
    tool({
      name: "search",
      description: "Search the product docs.",
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      concurrent: true,
      execute: async ({ query }: { query: string }) => {
        await sleep(40);
        return searchResult(query);
      },
    }),
    tool({
      name: "lookup_customer",
      description: "Find a customer by email.",
      inputSchema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
      concurrent: true,
      execute: async ({ email }: { email: string }) => {
        await sleep(40);
        return { email, customer_id: "CUST-4711", plan: "pro", seats: 12 };
      },
    }),
    tool({
      name: "flaky",
      description: "Always fails.",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        throw new Error("upstream timed out after 5000 ms");
      },
    }),
  ];
}

/** Two parallel tool calls, one failing tool, then an answer. */
export function supportScript(): ScriptStep[] {
  return [
    {
      text: "Let me check.",
      toolCalls: [
        { id: "call_search", name: "search", input: { query: "pricing" } },
        { id: "call_lookup", name: "lookup_customer", input: { email: "alice@example.com" } },
      ],
      usage: { inputTokens: 120, outputTokens: 30 },
    },
    { toolCalls: [{ id: "call_flaky", name: "flaky", input: {} }], usage: { inputTokens: 200, outputTokens: 12 } },
    {
      text: "Pricing is $10 per seat; alice@example.com (CUST-4711) is on pro.",
      usage: { inputTokens: 260, outputTokens: 25 },
    },
  ];
}

/** Runs the support agent once with the recorder; returns the run's result. */
export async function recordSupportRun(
  store: string,
  recorder: Omit<FlightRecorderOptions, "dir"> = {},
  script: ScriptStep[] = supportScript(),
  agentOptions: Pick<AgentOptions, "redact"> = {},
): Promise<RunResult> {
  const agent = new Agent({
    ...agentOptions,
    provider: new ScriptedProvider(script),
    name: "support-bot",
    system: SUPPORT_SYSTEM,
    tools: supportTools(),
    extensions: [new FlightRecorderExtension({ dir: store, ...recorder })],
  });
  try {
    return await agent.run("How much is pricing for alice@example.com?");
  } finally {
    await agent.close();
  }
}

/**
 * The support run with a guard extension that contributes a prompt fragment and a policy
 * denying `flaky`: the recording must say which extension blocked the call.
 */
export async function recordGuardedRun(store: string): Promise<RunResult> {
  const guard = defineExtension({
    name: "guard",
    contribute: () =>
      contribution("guard", {
        prompts: [{ id: "etiquette", text: "Never call flaky tools twice." }],
        policies: [
          { id: "no-flaky", actions: ["flaky"], decide: () => ({ decision: "deny", reason: "flaky is quarantined" }) },
        ],
      }),
  });
  const agent = new Agent({
    provider: new ScriptedProvider(supportScript()),
    name: "support-bot",
    system: SUPPORT_SYSTEM,
    tools: supportTools(),
    extensions: [new FlightRecorderExtension({ dir: store }), guard],
  });
  try {
    return await agent.run("How much is pricing for alice@example.com?");
  } finally {
    await agent.close();
  }
}

/** A run whose model call fails with a non-retryable error. */
export async function recordFailedRun(store: string): Promise<RunResult> {
  const agent = new Agent({
    provider: new ScriptedProvider([{ error: { status: 400, message: "invalid request: prompt too long" } }]),
    name: "support-bot",
    system: SUPPORT_SYSTEM,
    extensions: [new FlightRecorderExtension({ dir: store })],
  });
  try {
    return await agent.run("Summarize the whole ticket history");
  } finally {
    await agent.close();
  }
}

/** A model call retried after a 503, and a tool result large enough to be spilled to the store. */
export async function recordBusyRun(store: string): Promise<RunResult> {
  const report = tool({
    name: "export_report",
    description: "Exports the full ticket report.",
    inputSchema: { type: "object", properties: {} },
    execute: () =>
      Array.from({ length: 400 }, (_, i) => ({ ticket: i, status: i % 3 ? "open" : "closed", note: "x".repeat(20) })),
  });
  const agent = new Agent({
    provider: new ScriptedProvider([
      { error: { status: 503, message: "overloaded" } },
      { toolCalls: [{ id: "call_report", name: "export_report", input: {} }] },
      { text: "The report has 400 tickets." },
    ]),
    name: "report-bot",
    tools: [report],
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    extensions: [
      new FlightRecorderExtension({ dir: store }),
      new ResultSpillExtension({ thresholdBytes: 2000, store: new ArtifactStore(store) }),
    ],
  });
  try {
    return await agent.run("Export the ticket report");
  } finally {
    await agent.close();
  }
}

/** A temporary directory removed by `cleanup` (test/support's `tempDir`, named for the CLI's tests). */
export const tempDir = (prefix = "trace-cli-"): { dir: string; cleanup: () => void } => systemTempDir(prefix);

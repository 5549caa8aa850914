import { Agent, configOptions, type ModelProvider, type ModelRequest, type Tool } from "@harnessx/core";
import {
  ReplayProvider,
  recordedCalls,
  unappliedPatterns,
  type RecordedEvent,
  type ReplayDivergence,
  type Recording,
} from "@harnessx/recorder";
import { buildAgent } from "../agent/agent-module.js";
import { invalidInput } from "../errors.js";
import { configDifferences, replayConfig, toolDifferences } from "./recorded-config.js";
import { RecordedTools, recordedPrompt } from "./recorded-tools.js";

/** What `--agent MODULE` exports (default export or `createAgent`): the user's agent, built around the replay provider. */
export type AgentFactory = (options: {
  provider: ModelProvider;
  tools: Tool[];
  model: string;
  name: string;
}) => Agent | Promise<Agent>;

/** The outcome of a replay, also the `--json` shape of `trace replay`. */
export interface ReplayReport {
  runId: string;
  reproduced: boolean;
  recordedCalls: number;
  replayedCalls: number;
  recordedStatus: string;
  replayedStatus: string;
  textMatches: boolean;
  /** The first request that differed from the recording, or null. */
  divergence: ReplayDivergence | null;
  divergences: number;
  /** Tool calls of the rerun that the recording holds no result for. */
  unmatchedToolCalls: string[];
  /** The rerun's error, if it failed. */
  error: string | null;
  /**
   * Settings of the agent under test (`--agent`) that differ from the recorded run's, e.g.
   * `contextBudgetTokens 50000 -> 150000`: reported apart from behaviour divergences. Empty when
   * the agent was rebuilt from the recording.
   */
  configDifferences: string[];
  /** False when the recording holds no configuration (an older recorder): the agent was rebuilt with the defaults. */
  configRecorded: boolean;
  /**
   * Value patterns the recording names that the agent's policy (new requests are redacted with it
   * before comparing) does not apply: a recording's patterns are never compiled.
   */
  unappliedPatterns: string[];
}

/**
 * Reruns a recorded conversation through the runtime: the recorder's ReplayProvider answers with
 * the recorded replies and compares every new request with the recorded one; tools answer with
 * their recorded results. Without a module the agent is rebuilt from the recording (system prompt,
 * tool definitions, model settings); with one, the user's (changed) code runs.
 */
export async function replayRun(recording: Recording, agentModule?: string): Promise<ReplayReport> {
  const { run } = recording;
  const events = await recording.readEvents({ payloads: true });
  const calls = recordedCalls(events);
  const start = events.find((e) => e.kind === "agent_start");
  const input = (start?.payload as { input?: unknown } | undefined)?.input;
  if (!start || typeof input !== "string")
    throw invalidInput(`run ${run.runId} has no recorded input (AGENT_START missing)`);
  if (input === "[content not captured]")
    throw invalidInput(
      `run ${run.runId} was recorded with captureContent: false; replay needs the recorded conversation`,
    );
  const first: ModelRequest | undefined = calls[0]?.request;
  if (!first) throw invalidInput(`run ${run.runId} has no recorded model call to replay`);

  // New requests are redacted as the agent under test redacts (the defaults for a rebuilt one),
  // never by the recording's patterns; the agent exists by the first call.
  let agent: Agent;
  const provider = new ReplayProvider(calls, { redaction: () => (run.redaction === "off" ? false : agent.redactor) });
  const recordedTools = new RecordedTools(events, agentModule ? "raw" : "processed");
  const tools = recordedTools.tools(first.tools ?? [], run.tools ?? []);
  const model = first.model;
  const name = run.agent;
  const config = replayConfig(run.config);
  if (agentModule) agent = await buildAgent(agentModule, { provider, tools, model, name });
  else {
    const { system, extensions } = recordedPrompt(first);
    const replayed = configOptions(config ?? {});
    agent = new Agent({
      ...(first.temperature !== undefined ? { temperature: first.temperature } : {}),
      ...replayed,
      // The recorded settings win over what the first request suggests.
      limits: { maxTokens: first.maxTokens, maxIterations: calls.length + 2, ...replayed.limits },
      provider,
      model,
      name,
      system,
      // The agent offers write_todos itself when `todos` is on: the recorded definition would be a second one.
      tools: config?.todos ? tools.filter((t) => t.name !== "write_todos") : tools,
      extensions,
    });
  }
  const end = events.find((e) => e.kind === "agent_end");
  // A rebuilt agent has no slash commands: it is given the message the command expanded to.
  const sent = agentModule ? input : (commandMessage(events, first) ?? input);
  const recordedText = (end?.payload as { result?: { text?: unknown } } | undefined)?.result?.text;
  try {
    const result = await agent.run(sent);
    const textMatches = recordedText === undefined || recordedText === result.text;
    const report: ReplayReport = {
      runId: run.runId,
      reproduced: false,
      recordedCalls: calls.length,
      replayedCalls: provider.position,
      recordedStatus: run.status,
      replayedStatus: result.status,
      textMatches,
      divergence: provider.divergences[0] ?? null,
      divergences: provider.divergences.length,
      unmatchedToolCalls: recordedTools.unmatched,
      error: result.error ? `${result.error.name}: ${result.error.message}` : null,
      configDifferences: agentModule
        ? [...configDifferences(run.config, agent.config), ...toolDifferences(run.tools, agent.info.tools)]
        : [],
      configRecorded: config !== undefined,
      unappliedPatterns: unappliedPatterns(run, agent.redactor),
    };
    report.reproduced =
      report.divergences === 0 &&
      report.replayedCalls === report.recordedCalls &&
      report.recordedStatus === report.replayedStatus &&
      textMatches &&
      report.unmatchedToolCalls.length === 0;
    return report;
  } finally {
    await agent.close();
  }
}

/**
 * The user message a slash command expanded to, when the run started with one: the first
 * request's user text of the recorded length. Undefined for a run typed as plain input.
 */
function commandMessage(events: readonly RecordedEvent[], first: ModelRequest): string | undefined {
  const command = events.find((e) => e.kind === "command_invoked");
  if (command?.attrs.sent !== true) return undefined;
  const chars = command.attrs.messageChars;
  const texts = first.messages.flatMap((m) =>
    m.role === "user" ? m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])) : [],
  );
  // Redaction may have changed its length: then it is the last text the run added before its first call.
  return texts.find((text) => text.length === chars) ?? texts.at(-1);
}

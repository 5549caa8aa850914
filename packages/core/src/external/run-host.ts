import { Agent } from "../engine/agent.js";
import type { AgentInfo } from "../engine/agent-info.js";
import { engineServicesOf } from "../engine/agent.js";
import type { ModelPrice } from "../cost/call-cost.js";
import { ConfigError, HarnessError } from "../errors.js";
import type { ExtensionEntry } from "../extensions/extension.js";
import type { Redactor } from "../redact/redactor.js";
import type { RedactionOptions } from "../redact/rules.js";
import type { ModelProvider } from "../types/provider.js";
import { HostedRun, type HostedRunStart } from "./hosted-run.js";

/** What a `RunHost` is built with. */
export interface RunHostOptions {
  /** The framework that makes the runs, e.g. `ai-sdk`: recorded as the `harnessx.framework` run attribute. */
  framework: string;
  /** The installed extensions (a `FlightRecorderExtension`, an OpenTelemetry or LangSmith exporter...). */
  extensions?: readonly ExtensionEntry[];
  /** Name of the agent in traces (`invoke_agent <name>`). Default: the framework's name. */
  name?: string;
  /** Model id a run names when its start does not say. Default `"unknown"`. */
  model?: string;
  /** Provider name the agent reports (`AgentInfo.provider`). Default: the framework's name. */
  provider?: string;
  /** The redaction policy of what the extensions write or send, as `AgentOptions.redact`. */
  redact?: RedactionOptions | false;
  /** Session id shared by the runs. Default: a generated one. */
  sessionId?: string;
  /** Prices of models by id, used before genai-prices' table (as `AgentOptions.prices`). */
  prices?: Readonly<Record<string, ModelPrice>>;
}

/**
 * Hosts runs another framework makes (the AI SDK, the OpenAI Agents SDK): it builds the same
 * parts an `Agent` builds (extension host, hook bus, redactor, span scopes, agent info, pricer)
 * by building one, and lets an adapter report each run as the engine would — `AGENT_START`,
 * `LLM_REQUEST`/`LLM_RESPONSE`, `TOOL_CALL_START`/`TOOL_CALL_END`, `ERROR`, `AGENT_END` — with
 * span contexts from core's span scopes. So a recorder or an exporter installed here records
 * such a run exactly as a native one.
 */
export class RunHost implements AsyncDisposable {
  /** The framework named on every run. */
  readonly framework: string;
  private readonly agent: Agent;
  private closed = false;

  constructor(options: RunHostOptions) {
    if (typeof options?.framework !== "string" || options.framework.trim() === "")
      throw new ConfigError('RunHost needs the framework\'s name (e.g. { framework: "ai-sdk" })');
    this.framework = options.framework;
    this.agent = new Agent({
      context: { condense: false },
      limits: { repetition: false },
      provider: frameworkProvider(options.provider ?? options.framework),
      name: options.name ?? options.framework,
      model: options.model ?? "unknown",
      ...(options.extensions ? { extensions: options.extensions } : {}),
      ...(options.redact !== undefined ? { redact: options.redact } : {}),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.prices ? { pricing: { prices: options.prices } } : {}),
    });
  }

  /** The read-only view extensions get (name, session, model, provider). */
  get info(): AgentInfo {
    return this.agent.info;
  }

  /** The redaction policy the extensions apply. */
  get redactor(): Redactor {
    return this.agent.redactor;
  }

  /** Reports a run's start: opens its span and fires `AGENT_START` (then the extensions' session and turn starts). */
  async startRun(start: HostedRunStart): Promise<HostedRun> {
    if (this.closed) throw new HarnessError("host_closed", "this RunHost is closed; its extensions are torn down");
    if (typeof start?.input !== "string")
      throw new HarnessError("invalid_run_start", "startRun needs the run's input as a string");
    return HostedRun.start(engineServicesOf(this.agent), this.framework, start);
  }

  /** Runs every extension's teardown (a recorder writes what it holds); runs still open are recorded as incomplete. */
  close(): Promise<void> {
    this.closed = true;
    return this.agent.close();
  }

  /** Same as `close()`, for `await using host = new RunHost(...)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** The agent's provider: runs are made by the framework, so a call through it is a mistake, refused plainly. */
function frameworkProvider(name: string): ModelProvider {
  return {
    name,
    complete: () =>
      Promise.reject(
        new HarnessError(
          "hosted_runs_only",
          `the ${name} runs are made by that framework; a RunHost only reports them`,
        ),
      ),
  };
}

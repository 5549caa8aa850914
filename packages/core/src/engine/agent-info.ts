import type { ExtensionSummary } from "../extensions/contribution.js";
import type { ToolSummary } from "../tools/tool-summary.js";
import { deepFreeze } from "../util/deep-freeze.js";
import type { AgentConfig } from "./config.js";

/**
 * A read-only view of the agent for extensions and observers: facts, never handles. It holds
 * no reference to the `Agent`, its permission manager or any registry, so nothing reached
 * through it can change what the agent may do.
 */
export interface AgentInfo {
  /** The agent's name (`config.name`), as used in traces. */
  readonly name: string;
  /** The session this agent belongs to: given in `AgentOptions.sessionId` or generated. */
  readonly sessionId: string;
  /** The model id requests are sent with (`config.model`). */
  readonly model: string;
  /** The provider's name (`openai`, `anthropic`, `scripted`, ...). */
  readonly provider: string;
  /** The resolved configuration, deeply frozen. */
  readonly config: Readonly<AgentConfig>;
  /** The tools offered right now, by name (a fresh frozen array each time). */
  readonly toolNames: readonly string[];
  /** The tools offered right now: definitions' digests and execution settings, never handlers. */
  readonly tools: readonly ToolSummary[];
  /** Installed extensions in install order: level, source and the ids of what each contributed. */
  readonly extensions: readonly ExtensionSummary[];
}

export interface AgentInfoSources {
  sessionId: string;
  provider: string;
  config: Readonly<AgentConfig>;
  toolNames(): string[];
  tools(): ToolSummary[];
  extensions(): ExtensionSummary[];
}

/** Builds the frozen view; live parts are read through closures, so no handle is stored on it. */
export function createAgentInfo(sources: AgentInfoSources): AgentInfo {
  const { sessionId, provider, config, toolNames, tools, extensions } = sources;
  const info = {} as AgentInfo;
  Object.defineProperties(info, {
    name: { value: config.name, enumerable: true },
    sessionId: { value: sessionId, enumerable: true },
    model: { value: config.model, enumerable: true },
    provider: { value: provider, enumerable: true },
    config: { value: config, enumerable: true },
    toolNames: { get: () => Object.freeze(toolNames()), enumerable: true },
    tools: { get: () => deepFreeze(tools()), enumerable: true },
    extensions: { get: () => deepFreeze(extensions()), enumerable: true },
  });
  return Object.freeze(info);
}

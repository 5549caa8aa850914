import { Agent, type AgentOptions } from "../engine/agent.js";
import { ALL_HOOK_EVENTS, HookEvent } from "../hooks/events.js";
import type { HookPayloads } from "../hooks/payloads.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { tool, type Tool } from "../tools/tool.js";
import { Extension } from "../extensions/extension.js";
import type { ExtensionContext } from "../extensions/extension-context.js";

export interface Seen {
  event: HookEvent;
  data: unknown;
}

/** Records every hook event an agent emits, in order. */
export function recordEvents(agent: Agent): Seen[] {
  const seen: Seen[] = [];
  for (const event of ALL_HOOK_EVENTS) agent.hooks.on(event, (ctx) => void seen.push({ event, data: ctx.data }));
  return seen;
}

export function ofKind<E extends HookEvent>(seen: Seen[], event: E): HookPayloads[E][] {
  return seen.filter((s) => s.event === event).map((s) => s.data as HookPayloads[E]);
}

export function scriptedAgent(steps: ScriptStep[], options: Partial<AgentOptions> = {}): Agent {
  return new Agent({ provider: new ScriptedProvider(steps), retry: { initialDelayMs: 1, maxDelayMs: 5 }, ...options });
}

export const echoTool: Tool = tool({
  name: "echo",
  description: "echo returns its text argument.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
  execute: ({ text }) => `echo: ${String(text)}`,
});

export { HookEvent };

/** An extension named `name` whose install is `installWith`: a test's hostile or probing extension. */
export class InlineExtension extends Extension {
  constructor(
    readonly name: string,
    private readonly installWith: (ctx: ExtensionContext) => void,
  ) {
    super();
  }
  override install(ctx: ExtensionContext): void {
    this.installWith(ctx);
  }
}

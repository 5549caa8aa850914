import { Agent, type AgentOptions } from "../engine/agent.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { tool, type Tool } from "../tools/tool.js";
import { Extension } from "../extensions/extension.js";
import type { ExtensionContext } from "../extensions/extension-context.js";

export { ofKind, recordEvents, type Seen } from "./events.js";

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

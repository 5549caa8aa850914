import { createHash } from "node:crypto";
import { toError } from "../errors.js";
import type { PromptProvider } from "../extensions/context.js";
import type { ToolDefinition } from "../types/provider.js";
import type { Registry } from "../util/registry.js";

export interface ComposedPrompt {
  system: string;
  prefixKey: string;
}

/**
 * Composes the system prompt: the configured text, an "Available tools"
 * section naming every tool with its description, then prompt providers'
 * text. Provider failures are reported and left out. The prefix key (a hash of
 * system prompt and tool definitions) is recomputed only when either changed.
 */
export class SystemPromptComposer {
  private lastSystem: string | undefined;
  private lastTools: readonly ToolDefinition[] | undefined;
  private lastKey = "";

  constructor(
    private readonly base: string,
    private readonly providers: Registry<PromptProvider>,
    private readonly onProviderError: (owner: string | undefined, error: Error) => void,
  ) {}

  compose(tools: readonly ToolDefinition[]): ComposedPrompt {
    const parts: string[] = [];
    if (this.base) parts.push(this.base);
    if (tools.length) parts.push(toolsSection(tools));
    for (const { value, owner } of this.providers.list()) {
      try {
        const text = value();
        if (typeof text === "string" && text.trim() !== "") parts.push(text);
      } catch (err) {
        this.onProviderError(owner, toError(err));
      }
    }
    const system = parts.join("\n\n");
    if (system !== this.lastSystem || tools !== this.lastTools) {
      this.lastKey = prefixKey(system, tools);
      this.lastSystem = system;
      this.lastTools = tools;
    }
    return { system, prefixKey: this.lastKey };
  }
}

function toolsSection(tools: readonly ToolDefinition[]): string {
  const lines = tools.map((t) => `- ${t.name}: ${t.description || "(no description)"}`);
  return `## Available tools\n${lines.join("\n")}`;
}

export function prefixKey(system: string, tools: readonly ToolDefinition[]): string {
  const hash = createHash("sha256");
  hash.update(system);
  for (const t of tools) hash.update(`\u0000${t.name}\u0000${t.description}\u0000${JSON.stringify(t.inputSchema)}`);
  return hash.digest("hex").slice(0, 16);
}

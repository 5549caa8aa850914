import { createHash } from "node:crypto";
import { toError } from "../errors.js";
import type { PromptFragment } from "../extensions/contribution.js";
import type { ToolDefinition } from "../types/provider.js";
import type { Entry, Registry } from "../util/registry.js";
import { renderSystemPrompt, type RenderedFragment } from "./sections.js";

export interface ComposedPrompt {
  system: string;
  prefixKey: string;
}

const TIER_RANK = { guidance: 0, context: 1 } as const;

/**
 * Composes the system prompt: the operator's text (the agent's `system`), an "Available
 * tools" section, then extension fragments in labelled sections, `guidance` before
 * `context`, by `order`, ties in install order. A fragment whose function throws is left out
 * and reported; one longer than the limit is cut and reported once. The prefix key (a hash
 * of system prompt and tool definitions) is recomputed only when either changed.
 */
export class SystemPromptComposer {
  private lastSystem: string | undefined;
  private lastTools: readonly ToolDefinition[] | undefined;
  private lastKey = "";
  private sortedFrom: readonly Entry<PromptFragment>[] | undefined;
  private sorted: readonly Entry<PromptFragment>[] = [];
  private readonly reportedOversize = new WeakSet<PromptFragment>();

  constructor(
    private readonly operator: string,
    private readonly fragments: Registry<PromptFragment>,
    private readonly maxFragmentChars: number,
    private readonly onFragmentError: (owner: string | undefined, error: Error) => void,
  ) {}

  compose(tools: readonly ToolDefinition[]): ComposedPrompt {
    const rendered: RenderedFragment[] = [];
    for (const { value, owner } of this.ordered()) {
      if (value.requiresTool !== undefined && !tools.some((t) => t.name === value.requiresTool)) continue;
      const text = this.textOf(value, owner);
      if (text)
        rendered.push({
          extension: owner ?? "",
          id: value.id,
          tier: value.tier === "context" ? "context" : "guidance",
          text,
        });
    }
    const system = renderSystemPrompt(this.operator, tools, rendered);
    if (system !== this.lastSystem || tools !== this.lastTools) {
      this.lastKey = prefixKey(system, tools);
      this.lastSystem = system;
      this.lastTools = tools;
    }
    return { system, prefixKey: this.lastKey };
  }

  private ordered(): readonly Entry<PromptFragment>[] {
    const entries = this.fragments.list();
    if (entries !== this.sortedFrom) {
      const rank = (f: PromptFragment) => TIER_RANK[f.tier === "context" ? "context" : "guidance"];
      this.sorted = entries
        .map((entry, index) => ({ entry, index }))
        .sort(
          (a, b) =>
            rank(a.entry.value) - rank(b.entry.value) ||
            (a.entry.value.order ?? 100) - (b.entry.value.order ?? 100) ||
            a.index - b.index,
        )
        .map((e) => e.entry);
      this.sortedFrom = entries;
    }
    return this.sorted;
  }

  private textOf(fragment: PromptFragment, owner: string | undefined): string | undefined {
    let text: unknown;
    try {
      text = typeof fragment.text === "function" ? fragment.text() : fragment.text;
    } catch (err) {
      this.onFragmentError(owner, toError(err));
      return undefined;
    }
    if (typeof text !== "string" || text.trim() === "") return undefined;
    if (text.length <= this.maxFragmentChars) return text;
    if (!this.reportedOversize.has(fragment)) {
      this.reportedOversize.add(fragment);
      this.onFragmentError(
        owner,
        new Error(
          `prompt fragment "${fragment.id}" returned ${text.length} characters; cut to the limit of ${this.maxFragmentChars} (maxPromptFragmentChars)`,
        ),
      );
    }
    return `${text.slice(0, this.maxFragmentChars)}\n[cut: the fragment exceeded ${this.maxFragmentChars} characters]`;
  }
}

/**
 * A short key of a request's stable prefix: 16 hex characters of the sha256 of the system prompt
 * and every tool's name, description and input schema. Equal keys mean the same prefix.
 */
export function prefixKey(system: string, tools: readonly ToolDefinition[]): string {
  const hash = createHash("sha256");
  hash.update(system);
  for (const t of tools) hash.update(`\u0000${t.name}\u0000${t.description}\u0000${JSON.stringify(t.inputSchema)}`);
  return hash.digest("hex").slice(0, 16);
}

import { Extension } from "../extensions/extension.js";
import type { ExtensionContext } from "../extensions/extension-context.js";
import type { CompactRequest } from "../middleware/middleware.js";
import type { Message } from "../types/content.js";
import type { ModelProvider } from "../types/provider.js";

/** What `new SummarizingCompactor(options)` takes: the summarizing model and the size limits. */
export interface SummarizingCompactorOptions {
  /** The model that writes summaries: often the agent's own provider, or a cheaper one. */
  provider: ModelProvider;
  /** Default: the provider's default model, else the agent's model. */
  model?: string;
  /** Reply budget of one summary. Default 1,024 tokens. */
  maxSummaryTokens?: number;
  /** Characters of the dropped history shown to the summarizer (the oldest are cut first). Default 60,000. */
  maxTranscriptChars?: number;
}

const INSTRUCTIONS =
  "You compact an AI agent's working history. Summarize the conversation excerpt you are given so the agent can continue its task: " +
  "the user's goals, decisions made, facts learned from tool results (names, ids, numbers), what failed and why, and what is still open. " +
  "Be brief and factual; write no preamble.";

/** One line per block of the dropped history, tool results cut: what the summarizer reads. */
function transcript(messages: readonly Message[], maxChars: number): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text") lines.push(`${message.role}: ${block.text}`);
      else if (block.type === "tool_call") lines.push(`assistant called ${block.name}(${JSON.stringify(block.input)})`);
      else if (block.type === "tool_result")
        lines.push(
          `result of ${block.name}${block.isError ? " (error)" : ""}: ${block.content.length > 2000 ? `${block.content.slice(0, 2000)} [cut]` : block.content}`,
        );
    }
  }
  const text = lines.join("\n");
  return text.length > maxChars ? `[earlier part cut]\n${text.slice(text.length - maxChars)}` : text;
}

/**
 * Opt-in compaction that summarizes instead of dropping: its `beforeCompact` middleware asks a
 * model for a summary of the messages compaction is about to drop, and that summary takes their
 * place (`CONTEXT_CONDENSED` then says `summarized: true`, by `summarizing-compactor`, with the
 * summary). Without it, compaction drops and marks. A failed summary call fails the run, as any
 * rewriting middleware does: the agent never continues on a history it was not meant to have.
 */
export class SummarizingCompactor extends Extension {
  readonly name = "summarizing-compactor";

  constructor(private readonly options: SummarizingCompactorOptions) {
    super();
  }

  override install(ctx: ExtensionContext): void {
    const { provider, maxSummaryTokens = 1024, maxTranscriptChars = 60_000 } = this.options;
    const model = this.options.model ?? provider.defaultModel ?? ctx.info.model;
    ctx.addMiddleware({
      name: "SummarizingCompactor",
      async beforeCompact(request: CompactRequest) {
        const reply = await provider.complete({
          model,
          system: INSTRUCTIONS,
          messages: [
            { role: "user", content: [{ type: "text", text: transcript(request.dropping, maxTranscriptChars) }] },
          ],
          tools: [],
          maxTokens: maxSummaryTokens,
          stream: false,
        });
        const summary = reply.content
          .flatMap((b) => (b.type === "text" ? [b.text] : []))
          .join("")
          .trim();
        return summary ? { summary } : undefined;
      },
    });
  }
}

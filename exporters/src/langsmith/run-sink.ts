import type { Client, RunTree as RunTreeType } from "langsmith";
import { RunTree } from "langsmith";
import type { Usage, CallCost, RunCost } from "@harnessx/core";
import type { Redactor } from "@harnessx/core/extension";
import { redactEvent, type SpanClose, type SpanEventSpec, type SpanOpen, type SpanSink } from "@harnessx/core/tracing";
import { assistantMessage, requestMessages, toolSchemas } from "./messages.js";
import type { DeliveryLedger } from "./ledger.js";
import { listToolRun, toolRunOf } from "./tool-runs.js";

export interface RunHandle {
  tree: RunTreeType;
  /** Settles once the create was queued; the update waits for it so it never overtakes it. */
  posted: Promise<void>;
  /** Takes a tool run off the process's list of open tool runs (see `tool-runs.ts`) when it ends. */
  unlist?: () => void;
}

export interface RunSinkOptions {
  client: Client;
  projectName: string;
  /** Longest string kept per message or result. */
  maxContentChars: number;
  ledger?: DeliveryLedger;
  /** Metadata on every run (the conversation, for LangSmith threads). */
  metadata?: Record<string, string>;
  /** Applied to every input, output and error before it is sent. */
  redactor: Redactor;
}

/**
 * LangSmith's `usage_metadata`: token counts, and the cost as its SDK documents it
 * (`input_cost`, `output_cost`, `total_cost`) for a priced model call, or `total_cost` of a run's
 * priced calls. A call without a price has no cost fields (LangSmith may still price it).
 */
function usageMetadata(u: Partial<Usage> | undefined, cost?: CallCost | RunCost): Record<string, unknown> | undefined {
  if (!u || typeof u.inputTokens !== "number" || typeof u.outputTokens !== "number") return undefined;
  const details: Record<string, number> = {};
  if (typeof u.cacheReadTokens === "number") details.cache_read = u.cacheReadTokens;
  if (typeof u.cacheWriteTokens === "number") details.cache_creation = u.cacheWriteTokens;
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
    ...(Object.keys(details).length ? { input_token_details: details } : {}),
    ...(cost && "inputUsd" in cost ? { input_cost: cost.inputUsd, output_cost: cost.outputUsd } : {}),
    ...(typeof cost?.usd === "number" ? { total_cost: cost.usd } : {}),
  };
}

/**
 * LangSmith run trees from the shared mapping: a `chain` run per agent run,
 * `llm` runs for model calls and `tool` runs for tool calls, posted when they
 * start and patched when they end, in the order and dotted order the SDK builds.
 */
export class LangSmithSink implements SpanSink<RunHandle> {
  /** Work not yet handed to the client; a flush waits for it. */
  readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly o: RunSinkOptions) {}

  /** A run's inputs, outputs or metadata as sent: JSON data with the redaction policy applied. */
  private redacted(value: Record<string, unknown>): Record<string, unknown> {
    return this.o.redactor.redact(value, "", []) as Record<string, unknown>;
  }

  /** A run's name (the agent's, `chat <model>`, a tool's): redacted as the recording redacts names. */
  private name(text: string): string {
    return this.o.redactor.redactText(text);
  }

  private track(work: Promise<void>): Promise<void> {
    const tracked = work.catch(() => {}).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return tracked;
  }

  open(span: SpanOpen, parent: RunHandle | undefined): RunHandle {
    const d = span.detail;
    const max = this.o.maxContentChars;
    let tree: RunTreeType;
    if (d.role === "agent" || !parent) {
      const name =
        typeof span.attributes["gen_ai.agent.name"] === "string"
          ? (span.attributes["gen_ai.agent.name"] as string)
          : span.name;
      // A subagent's run nests under its parent's tool run, in that run's project and trace.
      const above = d.role === "agent" ? toolRunOf(span.span?.parentSpanId) : undefined;
      tree = new RunTree({
        ...(above ? { parent_run: above } : {}),
        name: this.name(name),
        run_type: "chain",
        inputs: this.redacted(d.role === "agent" ? { input: d.start.input } : {}),
        project_name: above?.project_name ?? this.o.projectName,
        client: this.o.client,
        start_time: span.time,
        // The run's own metadata and tags (`RunOptions`) as LangSmith's, to filter runs by in its UI.
        ...(d.role === "agent" && d.start.tags?.length ? { tags: d.start.tags.map((tag) => this.name(tag)) } : {}),
        extra: this.redacted({
          metadata: {
            ...this.o.metadata,
            ...(d.role === "agent"
              ? { ...d.start.metadata, harnessx_run_id: d.start.runId, ls_model_name: d.start.model }
              : {}),
          },
        }),
      });
    } else if (d.role === "chat") {
      const req = d.request;
      const full = req.request;
      tree = parent.tree.createChild({
        name: this.name(span.name),
        run_type: "llm",
        start_time: span.time,
        inputs: this.redacted({
          messages: requestMessages(full?.system ?? req.system, full?.messages, max),
          ...(Array.isArray(full?.tools) && full.tools.length ? { tools: toolSchemas(full.tools) } : {}),
          model: req.model,
        }),
        extra: this.redacted({
          metadata: {
            ls_provider: String(span.attributes["gen_ai.provider.name"] ?? "unknown"),
            ls_model_name: req.model,
            ls_model_type: "chat",
            ...(typeof req.temperature === "number" ? { ls_temperature: req.temperature } : {}),
            ls_max_tokens: req.maxTokens,
          },
        }),
      });
    } else {
      tree = parent.tree.createChild({
        name: this.name(d.toolCall.name),
        run_type: "tool",
        start_time: span.time,
        inputs: this.redacted(d.toolCall.input ?? {}),
        extra: this.redacted({ metadata: { tool_call_id: d.toolCall.id } }),
      });
    }
    this.o.ledger?.expect(tree.id, "post");
    const posted = this.track(tree.postRun());
    return { tree, posted, ...(d.role === "tool" ? { unlist: listToolRun(span.span?.spanId, tree) } : {}) };
  }

  event(handle: RunHandle, event: SpanEventSpec): void {
    handle.tree.addEvent({
      name: event.name,
      time: new Date(event.time).toISOString(),
      kwargs: redactEvent(event, this.o.redactor).attributes,
    });
  }

  close(handle: RunHandle, close: SpanClose): void {
    handle.unlist?.();
    const d = close.detail;
    const max = this.o.maxContentChars;
    let outputs: Record<string, unknown> = {};
    let metadata: Record<string, unknown> | undefined;
    if (d.role === "agent" && d.result) {
      outputs = { output: d.result.text, status: d.result.status };
      metadata = { usage_metadata: usageMetadata(d.result.usage, d.result.usage?.cost) };
    } else if (d.role === "chat" && d.response) {
      const usage = usageMetadata(d.response.usage, d.response.cost);
      outputs = {
        messages: [assistantMessage(d.response.response?.content, max)],
        stop_reason: d.response.stopReason,
        ...(usage ? { usage_metadata: usage } : {}),
      };
      metadata = { ls_provider: d.response.provider, ...(usage ? { usage_metadata: usage } : {}) };
    } else if (d.role === "tool" && d.end) {
      outputs = d.spill
        ? { spilled: { resultId: d.spill.resultId, bytes: d.spill.bytes } }
        : { output: d.end.result?.content ?? "" };
      metadata = { outcome: d.end.outcome };
    }
    const error = close.error ? this.o.redactor.redactText(`${close.error.type}: ${close.error.message}`) : undefined;
    outputs = this.redacted(outputs);
    if (metadata) metadata = this.redacted(metadata);
    this.o.ledger?.expect(handle.tree.id, "patch");
    this.track(
      handle.posted.then(async () => {
        await handle.tree.end(outputs, error, close.time, metadata);
        await handle.tree.patchRun();
      }),
    );
  }
}

import { HarnessError, type ToolCallBlock } from "@harnessx/core";
import type { HostedRun, RunHost } from "@harnessx/core";
import { HookEvent, type RunAttributeValue } from "@harnessx/core/extension";
import type { SpanContext } from "@harnessx/core/tracing";
import { field, stringField, timeOf, type AgentsSdkSpanError } from "./sdk-types.js";
import { answerText, argumentsOf, lastUserText } from "./sdk-items.js";
import { readModelSpan } from "./model-call.js";
import { findUnder, isModelSpan, typeOf, type SpanNode } from "./span-tree.js";

/** The extension name on the custom events the recording adds (guardrails). */
export const OPENAI_AGENTS_EXTENSION = "openai-agents";

declare module "@harnessx/core/extension" {
  interface CustomEvents {
    /** An Agents SDK guardrail ran on the agent's input or output; `triggered` is its tripwire. */
    "openai-agents.guardrail": {
      /** The guardrail's name. */
      name: string;
      /** True when its tripwire triggered: the SDK stops the run. */
      triggered: boolean;
    };
  }
}

/** What a run hangs from: its task span, or the trace itself (its top-level spans). */
export interface RunSource {
  readonly children: readonly SpanNode[];
  /** The task span, when the runner made one. */
  readonly node?: SpanNode;
  /** The workflow name: the trace's name, or a nested run's task name. */
  readonly workflow: string;
  readonly sdkTraceId: string;
  readonly startedAt: number | undefined;
}

/**
 * One harnessx run replayed from the SDK spans of one runner invocation, as they end. A turn is
 * reported once it ended (its usage is known then), in the order its spans started: model calls,
 * tool calls (`function` spans), handoffs (a tool-like step: the model asked for the handoff as a
 * tool call, and its result is what the next agent reads) and guardrails (a custom event). So a
 * crash loses at most the turn in progress, and the events keep the engine's order.
 */
export class RunReplay {
  private run: HostedRun | undefined;
  private requested: ToolCallBlock[] = [];
  /** The tools offered to the last model call: a call it asked for by another name is a handoff. */
  private offered = new Set<string>();
  private answer = "";
  private model: string | undefined;

  constructor(
    private readonly host: RunHost,
    private readonly source: RunSource,
    private readonly parent?: SpanContext,
  ) {}

  /** The harnessx run, once started. */
  get hosted(): HostedRun | undefined {
    return this.run;
  }

  /**
   * Reports every span that ended and was not yet reported. The run starts with its first model
   * call, whose messages hold the run's input (no span carries it otherwise): spans that end
   * before (an input guardrail) wait for it, unless the run is finishing.
   */
  async advance(finishing = false): Promise<void> {
    if (!this.run && !finishing && !findUnder(this.source, (n) => isModelSpan(n) && n.ended)) return;
    await this.walk(this.source.children);
  }

  /** Reports what is left and ends the run: failed when the task (or an agent) span holds an error. */
  async finish(at?: number): Promise<HostedRun> {
    await this.advance(true);
    const run = await this.started();
    const error =
      this.source.node?.span.error ??
      findUnder(this.source, (n) => typeOf(n) === "agent" && n.span.error !== null)?.span.error ??
      null;
    const end = this.source.node ? timeOf(this.source.node.span.endedAt) : at;
    if (error)
      await run.end({
        status: "failed",
        text: "",
        error: new HarnessError("openai_agents_run_failed", errorText(error)),
        ...when(end),
      });
    else await run.end({ status: "completed", text: this.answer, ...when(end) });
    return run;
  }

  private async started(): Promise<HostedRun> {
    if (this.run) return this.run;
    const first = findUnder(this.source, (n) => isModelSpan(n) && n.ended);
    const call = first ? readModelSpan(first, this.fallback()) : undefined;
    const agent = findUnder(this.source, (n) => typeOf(n) === "agent");
    const attributes: Record<string, RunAttributeValue> = {
      "openai_agents.workflow": this.source.workflow,
      "openai_agents.trace_id": this.source.sdkTraceId,
    };
    const agentName = agent ? stringField(agent.span.spanData, "name") : undefined;
    if (agentName) attributes["gen_ai.agent.name"] = agentName;
    this.run = await this.host.startRun({
      input: call ? lastUserText(call.request.messages) : "",
      ...(call ? { model: call.request.model } : {}),
      attributes,
      ...(this.parent ? { parent: this.parent } : {}),
      ...when(this.source.startedAt),
    });
    return this.run;
  }

  /** Reports `nodes` in the order their first events happened (a turn's is its first call's start). */
  private async walk(nodes: readonly SpanNode[]): Promise<void> {
    const ordered = nodes.map((node) => ({ node, at: firstEventAt(node) })).sort((a, b) => a.at - b.at);
    for (const { node } of ordered) {
      if (node.done) continue;
      const type = typeOf(node);
      if (type === "turn" || type === "agent" || type === "task") {
        // A turn is reported whole, once its usage is known; agents (and a task under one) as they go.
        if (type === "turn" && !node.ended) continue;
        await this.walk(node.children);
        node.done = node.ended && node.children.every((c) => c.done);
      } else if (node.ended) {
        await this.report(node);
        node.done = true;
        // Its payload (a model call's messages, a tool's output) is with the recorder now: the tree
        // keeps only the span's place, so a long run holds no more than its open turn.
        node.span = { ...node.span, spanData: { type } };
      }
    }
  }

  private async report(node: SpanNode): Promise<void> {
    const run = await this.started();
    const type = typeOf(node);
    if (isModelSpan(node)) await this.reportModelCall(run, node);
    else if (type === "function") await this.reportTool(run, node);
    else if (type === "handoff") await this.reportHandoff(run, node);
    else if (type === "guardrail") {
      const data = {
        name: stringField(node.span.spanData, "name") ?? "",
        triggered: field(node.span.spanData, "triggered") === true,
      };
      await run.emit(
        run.span,
        HookEvent.CUSTOM,
        { extension: OPENAI_AGENTS_EXTENSION, name: "openai-agents.guardrail", data },
        timeOf(node.span.endedAt),
      );
    }
    // custom, mcp_tools and speech spans have no harnessx event; their work shows in the calls around them.
  }

  private async reportModelCall(run: HostedRun, node: SpanNode): Promise<void> {
    const call = readModelSpan(node, this.fallback());
    this.model = call.request.model;
    const hosted = await run.startModelCall({ request: call.request, ...when(call.startedAt) });
    if (node.span.error) return hosted.fail(new Error(errorText(node.span.error)), call.endedAt);
    await hosted.end({ response: call.response, ...when(call.endedAt) });
    this.requested = call.toolCalls;
    this.offered = new Set(call.request.tools.map((t) => t.name));
    const text = answerText(call.response.content);
    if (text !== "") this.answer = text;
  }

  private async reportTool(run: HostedRun, node: SpanNode): Promise<void> {
    const data = node.span.spanData;
    const name = stringField(data, "name") ?? "";
    const input = argumentsOf(field(data, "input"));
    const asked =
      this.take((c) => c.name === name && JSON.stringify(c.input) === JSON.stringify(input)) ??
      this.take((c) => c.name === name);
    const mcp = stringField(data, "mcp_data");
    const tool = await run.startToolCall({
      toolCall: { id: asked?.id || node.span.spanId, name, input },
      ...(mcp ? { attributes: { "openai_agents.mcp_data": mcp } } : {}),
      ...when(timeOf(node.span.startedAt)),
    });
    // An agent used as a tool runs the runner again inside the tool: a run of its own, under the tool's span.
    for (const task of node.children.filter((c) => typeOf(c) === "task")) {
      const nested = new RunReplay(
        this.host,
        {
          children: task.children,
          node: task,
          workflow: stringField(task.span.spanData, "name") ?? "",
          sdkTraceId: this.source.sdkTraceId,
          startedAt: timeOf(task.span.startedAt),
        },
        tool.span,
      );
      await nested.finish();
    }
    const output = stringField(data, "output") ?? "";
    const error = node.span.error;
    await tool.end({
      content: error ? output || errorText(error) : output,
      isError: error !== null,
      ...when(timeOf(node.span.endedAt)),
    });
  }

  private async reportHandoff(run: HostedRun, node: SpanNode): Promise<void> {
    const from = stringField(node.span.spanData, "from_agent") ?? "";
    const to = stringField(node.span.spanData, "to_agent") ?? "";
    const asked = this.take((c) => !this.offered.has(c.name));
    const toolCall = { id: asked?.id || node.span.spanId, name: asked?.name || "handoff", input: asked?.input ?? {} };
    const tool = await run.startToolCall({
      toolCall,
      attributes: { "openai_agents.handoff.from": from, "openai_agents.handoff.to": to },
      ...when(timeOf(node.span.startedAt)),
    });
    const error = node.span.error;
    // The SDK answers a handoff call with the new agent's name: what the next model call reads.
    await tool.end({
      content: error ? errorText(error) : JSON.stringify({ assistant: to }),
      isError: error !== null,
      ...when(timeOf(node.span.endedAt)),
    });
  }

  /** Takes the first tool call the last reply asked for that `match` accepts. */
  private take(match: (call: ToolCallBlock) => boolean): ToolCallBlock | undefined {
    const index = this.requested.findIndex(match);
    return index < 0 ? undefined : this.requested.splice(index, 1)[0];
  }

  private fallback(): { model: string; provider: string } {
    return { model: this.model ?? this.host.info.model, provider: this.host.info.provider };
  }
}

/** When a span's first event happened: its start, or a container's (turn, agent) first child's. */
function firstEventAt(node: SpanNode): number {
  const type = typeOf(node);
  const first = type === "turn" || type === "agent" || type === "task" ? node.children[0] : undefined;
  return first ? firstEventAt(first) : (timeOf(node.span.startedAt) ?? Number.MAX_SAFE_INTEGER);
}

/** A span error as text: the SDK puts the cause in `data.error` (with sensitive data) and a summary in `message`. */
function errorText(error: AgentsSdkSpanError): string {
  const cause = error.data?.error;
  return typeof cause === "string" && cause !== "" && cause !== "Error" ? cause : error.message;
}

const when = (at: number | undefined): { at?: number } => (at === undefined ? {} : { at });

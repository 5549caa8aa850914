import type { RunHost } from "@harnessx/core";
import { FlightRecorderExtension } from "../../recording/flight-recorder.js";
import { frameworkRecording, type FrameworkRecordingOptions } from "../framework-recording.js";
import type { AgentsSdkSpan, AgentsSdkTrace, AgentsSdkTracingProcessor } from "./sdk-types.js";
import { timeOf } from "./sdk-types.js";
import { RunReplay } from "./run-replay.js";
import { SpanTree, type SpanNode } from "./span-tree.js";

/** The framework name recorded on OpenAI Agents SDK runs (`harnessx.framework`). */
export const OPENAI_AGENTS_FRAMEWORK = "openai-agents";

/** How `recordOpenAIAgents` records: see `FrameworkRecordingOptions` (the default `name` is `openai-agents`). */
export type RecordOpenAIAgentsOptions = FrameworkRecordingOptions;

/** One SDK trace being recorded: its spans and the runs made in it, by task span (or the trace, without task spans). */
interface OpenTrace {
  trace: AgentsSdkTrace;
  startedAt: number;
  spans: SpanTree;
  runs: Map<SpanNode | undefined, RunReplay>;
}

/**
 * An OpenAI Agents SDK tracing processor that records each run of the runner as a harnessx run:
 * `addTraceProcessor(recording)`. Each `run()` (a task span) is a run; its model calls
 * (`generation` / `response` spans) are `LLM_REQUEST`/`LLM_RESPONSE` pairs with model, messages,
 * reply and usage; `function` spans are tool calls; a handoff is a tool call (the model asked for it
 * as one); guardrails are custom events; span errors become `ERROR`s and a failed run. Everything
 * goes through the recorder's normal path: the agent's redaction, content capture, spans and
 * tables. Its callbacks never throw into the SDK; what they report goes out one at a time, in the
 * order the SDK made it.
 */
export class OpenAIAgentsRecording implements AgentsSdkTracingProcessor {
  /** The recorder the runs are written with. */
  readonly recorder: FlightRecorderExtension;
  /** The host the runs are reported through (its `info`, `redactor`). */
  readonly host: RunHost;
  private readonly traces = new Map<string, OpenTrace>();
  private work: Promise<void> = Promise.resolve();
  private lastRunId: string | undefined;

  constructor(options: RecordOpenAIAgentsOptions = {}) {
    ({ recorder: this.recorder, host: this.host } = frameworkRecording(OPENAI_AGENTS_FRAMEWORK, options));
  }

  /** The run most recently started. */
  get lastRun(): string | undefined {
    return this.lastRunId;
  }

  /** A trace started: its spans are gathered from now on. */
  onTraceStart(trace: AgentsSdkTrace): Promise<void> {
    return this.now(() => void this.openTrace(trace));
  }

  /** A span started: it takes its place in its trace's tree. */
  onSpanStart(span: AgentsSdkSpan): Promise<void> {
    return this.now(() => void this.traceOf(span).spans.start(span));
  }

  /** A span ended: what ended with it is reported (a turn, a guardrail), or its run ends (a task span). */
  onSpanEnd(span: AgentsSdkSpan): Promise<void> {
    // The tree changes now, while the span is as it ended; the reporting waits its turn.
    return this.now(() => {
      const open = this.traceOf(span);
      const node = open.spans.end(span);
      const root = open.spans.runRootOf(node);
      const run = this.runOf(open, root);
      if (root !== node) return this.serial(() => run.advance());
      open.runs.delete(root);
      return this.serial(async () => void (this.lastRunId = (await run.finish()).runId));
    });
  }

  /** A trace ended: runs without a task span end with it. */
  onTraceEnd(trace: AgentsSdkTrace): Promise<void> {
    return this.now(() => {
      const open = this.traces.get(trace.traceId);
      if (!open) return;
      this.traces.delete(trace.traceId);
      const at = Date.now();
      // Runs without a task span end with the trace; so does a task the SDK never ended.
      return this.serial(async () => {
        for (const run of open.runs.values()) this.lastRunId = (await run.finish(at)).runId;
      });
    });
  }

  /** Waits for the spans received so far to be reported, then writes what the recorder holds. */
  async forceFlush(): Promise<void> {
    await this.work;
    await this.recorder.flush();
  }

  /** The SDK's shutdown (at process exit): the same as `close()`. */
  shutdown(): Promise<void> {
    return this.close();
  }

  /** Reports what is pending and closes the host: the recorder writes everything; runs still open are recorded as incomplete. */
  async close(): Promise<void> {
    await this.work;
    await this.host.close();
  }

  private openTrace(trace: AgentsSdkTrace): OpenTrace {
    const open: OpenTrace = { trace, startedAt: Date.now(), spans: new SpanTree(), runs: new Map() };
    this.traces.set(trace.traceId, open);
    return open;
  }

  /** The trace of a span; a trace that started before this processor was added is opened at its first span. */
  private traceOf(span: AgentsSdkSpan): OpenTrace {
    return this.traces.get(span.traceId) ?? this.openTrace({ traceId: span.traceId, name: "", groupId: null });
  }

  private runOf(open: OpenTrace, root: SpanNode | undefined): RunReplay {
    let run = open.runs.get(root);
    if (!run) {
      const source = root
        ? {
            children: root.children,
            node: root,
            workflow: open.trace.name,
            sdkTraceId: open.trace.traceId,
            startedAt: timeOf(root.span.startedAt),
          }
        : {
            children: open.spans.roots,
            workflow: open.trace.name,
            sdkTraceId: open.trace.traceId,
            startedAt: open.startedAt,
          };
      open.runs.set(root, (run = new RunReplay(this.host, source)));
    }
    return run;
  }

  /** Does the synchronous part of a callback: a span or trace the recording cannot read is left out, never thrown at the SDK. */
  private now(work: () => Promise<void> | void): Promise<void> {
    try {
      return work() ?? Promise.resolve();
    } catch {
      return Promise.resolve();
    }
  }

  /** Runs `work` after the callbacks before it; a failure of the recording never reaches the SDK's run. */
  private serial(work: () => Promise<void>): Promise<void> {
    this.work = this.work.then(work).catch(() => {
      // RunHost turns observer and extension failures into ERROR events; nothing else is expected here.
    });
    return this.work;
  }
}

/**
 * Records OpenAI Agents SDK runs into the harnessx store: pass the result to the SDK's
 * `addTraceProcessor` (tracing must be on: the SDK turns it off under `NODE_ENV=test` and with
 * `OPENAI_AGENTS_DISABLE_TRACING`). Pass a recorder, its options, or `RecordOpenAIAgentsOptions`;
 * `close()` it when done.
 */
export function recordOpenAIAgents(
  options: RecordOpenAIAgentsOptions | FlightRecorderExtension = {},
): OpenAIAgentsRecording {
  return new OpenAIAgentsRecording(options instanceof FlightRecorderExtension ? { recorder: options } : options);
}

import type { RunMetadata } from "./run-labels.js";
import type { HarnessError } from "../errors.js";
import type { RunCost } from "../cost/call-cost.js";
import type { ToolCall, ToolResult, Usage } from "../types/content.js";
import type { StreamEvent } from "../types/provider.js";
import type { TodoItem } from "../tools/todos.js";
import type { DurablePhase } from "../durable/durable-phase.js";

/** How a run ended: a final answer, an error (see `error`), an abort through `signal`, or a pause until `resume` decides the `pending` calls. */
export type RunStatus = "completed" | "failed" | "cancelled" | "awaiting_approval";

/** A tool call waiting for a human decision; answer it with `agent.resume({ [id]: "approve" | "deny" })`. */
export interface PendingApproval {
  /** The tool call's id: the key of this call's decision in `resume`. */
  id: string;
  /** The call, after `beforeToolExecution`, with its validated input. */
  toolCall: ToolCall;
  /** Why approval is needed, from the permission decision; `"approval required"` when it gave none. */
  reason: string;
}

/** A human's answer to one pending call: `approve` runs it, `deny` gives the model an error result instead. */
export type ApprovalDecision = "approve" | "deny";

/** A run's tokens, summed over its model calls, and their cost. */
export interface RunUsage extends Usage {
  /** Sum of the priced calls' cost, and the number of calls without a price. */
  cost: RunCost;
}

/** The outcome of one `run` or `resume`. */
export interface RunResult {
  /** How the run ended. */
  status: RunStatus;
  /** The final answer (continuations of a cut reply are joined). */
  text: string;
  /** What stopped the run; set when `status` is `failed` or `cancelled`, absent otherwise. */
  error?: HarnessError;
  /** The calls waiting for a decision when `status` is `awaiting_approval`; empty otherwise. */
  pending: PendingApproval[];
  /** Summed over every model call of the run, including calls after `resume`, with what they cost. */
  usage: RunUsage;
  /** Id of the run; the same across a run's `resume` calls. */
  runId: string;
  /** Model calls the run made. */
  modelCalls: number;
}

/** What `runStream` yields, in order, ending with `result`: the model's text and reasoning as they stream in, then the run's own steps. */
export type RunEvent =
  | Extract<
      StreamEvent,
      {
        /** The provider's stream events a run passes on as they are. */
        type: "text_delta" | "reasoning_delta";
      }
    >
  | {
      /** A permitted tool call is about to execute. */
      type: "tool_call_start";
      /** The call, with its validated input. */
      toolCall: ToolCall;
    }
  | {
      /** A tool call finished (refused and unknown calls included). */
      type: "tool_call_end";
      /** The call. */
      toolCall: ToolCall;
      /** The result after middleware, before it is cut to `maxResultChars` for the model. */
      result: ToolResult;
      /** Wall time from the call's start to its result, in ms. */
      durationMs: number;
    }
  | {
      /** The run is backing off before retrying a failed model call; repeated about every second. */
      type: "waiting";
      /** What is waited on: always `retry` for now. */
      on: "retry";
      /** Seconds waited so far in this backoff (0 on the first event). */
      seconds: number;
    }
  | {
      /** A durable run committed a phase boundary (`AgentOptions.durable`); `CHECKPOINT` fires with it. */
      type: "checkpoint";
      /** The phase committed. */
      phase: DurablePhase;
    }
  | {
      /** The model rewrote its task list with `write_todos`. */
      type: "todos_updated";
      /** The complete new list. */
      todos: TodoItem[];
    }
  | {
      /** The last event: the run ended or paused for approval. */
      type: "result";
      /** The same value the run's promise resolves to. */
      result: RunResult;
    };

/** Per-run options of `run`, `runStream`, `resume` and `resumeStream`. */
export interface RunOptions {
  /** Cancels the run: the result is `cancelled` and `AGENT_END` fires. */
  signal?: AbortSignal;
  /**
   * Application facts about the run (user id, ticket, release), over the agent's `metadata` key by
   * key: recorded, indexed and exported with it (`RunMetadata`). A `ConfigError` when out of bounds.
   */
  metadata?: RunMetadata;
  /** Labels to find the run by, after the agent's `tags` (each kept once). */
  tags?: readonly string[];
}

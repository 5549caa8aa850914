import { HarnessError, ToolRegistrationError } from "../errors.js";
import type { RunResult, RunStatus } from "../engine/run-types.js";
import type { JsonSchema, ZodSchema } from "../tools/schema.js";
import { tool, type Tool, type ToolSettings } from "../tools/tool.js";
import { parentRunOf, type ParentRun } from "./parent-run.js";

export type { ParentRun, Tool };

/** The input a subagent tool takes when `inputSchema` is not given: the task, as text. */
export interface SubagentInput {
  /** What the subagent is asked to do: its run's input. */
  input: string;
}

/** How an agent is offered to another as a tool (`agent.asTool`). */
export interface SubagentToolOptions extends Omit<ToolSettings, "retry" | "retryIfResult" | "writes"> {
  /** The tool's name, as the parent's model calls it: 1-64 letters, digits, `_` or `-`. */
  name: string;
  /** What the subagent does, for the parent's model. */
  description: string;
  /** The input the parent's model sends (JSON Schema or zod). Absent: `{ input: string }`, the task as text. */
  inputSchema?: JsonSchema | ZodSchema;
  /** Makes the child's input text from the validated input. Absent: the `input` property when it is a string, else the input as JSON. */
  toInput?: (input: Record<string, unknown>) => string;
}

/** A subagent's run ended without an answer (failed or cancelled): the parent's tool call fails with this. */
export class SubagentError extends HarnessError {
  /** The child run's id: its recording is in the same store, linked to the parent's. */
  readonly runId: string;
  /** How the child run ended. */
  readonly status: RunStatus;
  constructor(tool: string, result: RunResult) {
    const why = result.error?.message ?? result.status;
    super(
      "subagent_failed",
      `subagent "${tool}" ${result.status === "cancelled" ? "was cancelled" : "failed"} (run ${result.runId}): ${why}`,
      { cause: result.error },
    );
    this.runId = result.runId;
    this.status = result.status;
  }
}

/** Starts one run of the child agent under a parent run: the agent's own gate, loop and extensions. */
export type StartChildRun = (input: string, signal: AbortSignal, parent: ParentRun | undefined) => Promise<RunResult>;

const TASK_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    input: { type: "string", description: "The task for the subagent, with everything it needs to know." },
  },
  required: ["input"],
  additionalProperties: false,
};

/**
 * The tool behind `agent.asTool`: each call is one run of the child agent, started inside the
 * call's `execute_tool` span (so it nests there in every trace), under the calling run's
 * permissions and budget, cancelled with the call. The child's answer is the result; a child
 * that fails or is cancelled makes the call an error result (`SubagentError`), never a crash.
 */
export function subagentTool(options: SubagentToolOptions, start: StartChildRun): Tool {
  if (typeof options !== "object" || options === null)
    throw new ToolRegistrationError("asTool needs options: { name, description, inputSchema? }");
  if (options.toInput !== undefined && typeof options.toInput !== "function")
    throw new ToolRegistrationError(`subagent tool "${options.name}": toInput must be a function`);
  const { toInput, inputSchema, ...settings } = options;
  const inputText = (input: Record<string, unknown>): unknown =>
    toInput ? toInput(input) : typeof input.input === "string" ? input.input : JSON.stringify(input);
  return tool({
    ...settings,
    inputSchema: inputSchema ?? TASK_SCHEMA,
    async execute(input, context) {
      const text = inputText(input);
      if (typeof text !== "string")
        throw new HarnessError(
          "subagent_input",
          `subagent "${options.name}": toInput must return a string, got ${typeof text}`,
        );
      const result = await start(text, context.signal, parentRunOf(context.runId));
      if (result.status !== "completed") throw new SubagentError(options.name, result);
      return result.text;
    },
  });
}

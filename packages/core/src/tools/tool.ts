import type { z } from "zod";
import { ToolRegistrationError } from "../errors.js";
import { binaryForModel, binaryView } from "../redact/binary.js";
import type { Permission } from "../permissions/decision.js";
import type { ToolCall, ToolResult } from "../types/content.js";
import type { ToolDefinition } from "../types/provider.js";
import { compileSchema, type CompiledSchema, type JsonSchema, type ZodSchema } from "./schema.js";

/** How a replay may treat a tool: `safe` to rerun, `recorded` to answer from the recording, `never` to refuse. */
export type ReplayPolicy = "safe" | "recorded" | "never";

/** Retry of a failed tool call (a throw, a timeout, or `retryIfResult`), with growing delays between attempts. */
export interface ToolRetryOptions {
  /** Total attempts, the first included. Default 1 (no retry). */
  attempts: number;
  /** Delay before the second attempt. Default 200 ms. */
  backoffMs?: number;
  /** Multiplier per further attempt. Default 2. */
  factor?: number;
  /** Cap on one delay. Default 10 s. */
  maxBackoffMs?: number;
}

/** What a handler receives besides its input. */
export interface ToolExecutionContext {
  /** The call being executed (after `beforeToolExecution`), with its id and validated input. */
  toolCall: ToolCall;
  /** Id of the run that made the call. */
  runId: string;
  /** Aborted when the call times out or the run is cancelled. */
  signal: AbortSignal;
  /**
   * The same for every attempt of this call, retries and a durable run's resume included
   * (`<runId>:<callId>`): pass it to an external system so it can drop a repeated request.
   */
  idempotencyKey: string;
}

/** Execution settings shared by `tool()` and `ctx.registerTool`. */
export interface ToolSettings {
  /** Narrows the permission manager's default for this tool (the stricter of the two applies; only a rule by name widens). */
  permission?: Permission;
  /** Calls of concurrent tools requested in one turn run in parallel. Default false. */
  concurrent?: boolean;
  /** How a replay may treat the tool; recorded with each run. Absent: not declared. */
  replayPolicy?: ReplayPolicy;
  /** Time limit of one attempt, in seconds: the signal aborts and the result is an `isError` timeout. Absent: no limit. */
  timeoutSeconds?: number;
  /** Retries of failed attempts. Absent: one attempt. */
  retry?: ToolRetryOptions;
  /** Retry (within `retry.attempts`) when this returns true for a result. */
  retryIfResult?: (result: ToolResult) => boolean;
  /**
   * The files (or folders) a call writes, fixed or from its input: calls whose paths overlap
   * run one after another, whoever registered the tools, so two writers never clobber a file.
   */
  writes?: readonly string[] | ((input: Record<string, unknown>) => readonly string[]);
  /**
   * Attributes every `execute_tool` span of this tool carries (e.g. the MCP conventions'
   * `mcp.method.name`, `mcp.session.id`, `network.transport`), recorded with each call. Keys of
   * the `gen_ai.` and `harnessx.` namespaces belong to the mapping and are ignored.
   */
  spanAttributes?: Readonly<Record<string, string | number | boolean>>;
}

/** What `tool()` takes: name, description, input schema and handler, plus execution settings. */
export interface ToolSpec<I> extends ToolSettings {
  /** Unique among the agent's tools: 1-64 letters, digits, `_` or `-`. */
  name: string;
  /** What the tool does, as the model reads it in the tool list and system prompt. */
  description: string;
  /** The input the model must send: a JSON Schema of an object, or a zod v4 schema. Absent: an object with any properties. */
  inputSchema?: JsonSchema | ZodSchema;
  /** Returns a string, or any JSON value (sent as JSON). Throwing makes an `isError` result. */
  execute(input: I, context: ToolExecutionContext): unknown;
}

/** A registered-ready tool: its definition for providers plus its validator and handler. */
export interface Tool extends ToolSettings {
  /** The name the model calls it by. */
  readonly name: string;
  /** The extension that contributed it; set by `contribution()` and the host, absent for the application's tools. */
  readonly extension?: string;
  /** What the tool does, for the model; `""` when the spec gave none. */
  readonly description: string;
  /** Name, description and JSON Schema as sent to providers. */
  readonly definition: ToolDefinition;
  /** The input schema, compiled: checks the model's input before `execute` is called. */
  readonly schema: CompiledSchema;
  /** The handler: gets the validated input; returns a string or any JSON value, and a throw makes an `isError` result. */
  execute(input: Record<string, unknown>, context: ToolExecutionContext): unknown;
}

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Defines a tool; `inputSchema` is a JSON Schema (checked with ajv) or a zod v4 schema. */
export function tool<S extends ZodSchema>(spec: ToolSpec<z.output<S>> & { inputSchema: S }): Tool;
export function tool(spec: ToolSpec<Record<string, unknown>>): Tool;
export function tool(spec: ToolSpec<never>): Tool {
  if (typeof spec.name !== "string" || !TOOL_NAME.test(spec.name)) {
    throw new ToolRegistrationError(`tool name ${JSON.stringify(spec.name)} must be 1-64 letters, digits, "_" or "-"`);
  }
  if (typeof spec.execute !== "function")
    throw new ToolRegistrationError(`tool "${spec.name}" has no execute function`);
  const schema = compileSchema(spec.name, spec.inputSchema);
  const description = spec.description ?? "";
  return {
    ...spec,
    description,
    schema,
    definition: { name: spec.name, description, inputSchema: schema.jsonSchema },
    execute: spec.execute as Tool["execute"],
  };
}

/** Renders a handler's return value as the text the model reads; binary data as its text, or base64 when it is not text. */
export function renderToolOutput(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  const binary = binaryView(value);
  if (binary) return binaryForModel(binary, false) as string;
  try {
    return JSON.stringify(value, binaryAsText) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Binary data inside a result as its text or base64 (see `binaryForModel`), not as an array of numbers. */
function binaryAsText(_key: string, value: unknown): unknown {
  const binary = binaryView(value);
  return binary ? binaryForModel(binary, true) : value;
}

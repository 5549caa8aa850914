import { createHash } from "node:crypto";
import type { Permission } from "../permissions/decision.js";
import type { ReplayPolicy, Tool } from "./tool.js";

/** What a run was offered of a tool: enough to tell, from a recording, whether a tool changed since. */
export interface ToolSummary {
  /** The tool's name. */
  name: string;
  /** The description the model was given. */
  description: string;
  /** sha256 of the input schema's JSON, as the model is sent it. */
  schemaSha256: string;
  /** The extension that contributed it; absent for the application's own tools. */
  extension?: string;
  /** The permission the tool declared for itself; absent when it declared none. */
  permission?: Permission;
  /** Whether its calls of one turn may run in parallel. */
  concurrent: boolean;
  /** The replay policy it declared; absent when none. */
  replayPolicy?: ReplayPolicy;
  /** Its time limit per attempt, in seconds; absent when it has none. */
  timeoutSeconds?: number;
  /** Attempts per call, the first included (1: no retry). */
  attempts: number;
}

export function summarizeTool(tool: Tool): ToolSummary {
  return {
    name: tool.name,
    description: tool.description,
    schemaSha256: createHash("sha256")
      .update(JSON.stringify(tool.definition.inputSchema ?? null))
      .digest("hex"),
    ...(tool.extension ? { extension: tool.extension } : {}),
    ...(tool.permission ? { permission: tool.permission } : {}),
    concurrent: tool.concurrent === true,
    ...(tool.replayPolicy ? { replayPolicy: tool.replayPolicy } : {}),
    ...(tool.timeoutSeconds !== undefined ? { timeoutSeconds: tool.timeoutSeconds } : {}),
    attempts: tool.retry?.attempts ?? 1,
  };
}

import { createHash } from "node:crypto";
import type { Permission } from "../permissions/decision.js";
import type { ReplayPolicy, Tool } from "./tool.js";

/** What a run was offered of a tool: enough to tell, from a recording, whether a tool changed since. */
export interface ToolSummary {
  name: string;
  description: string;
  /** sha256 of the input schema's JSON, as the model is sent it. */
  schemaSha256: string;
  /** The extension that contributed it; absent for the application's own tools. */
  extension?: string;
  permission?: Permission;
  concurrent: boolean;
  replayPolicy?: ReplayPolicy;
  timeoutSeconds?: number;
  /** Attempts per call, the first included (1: no retry). */
  attempts: number;
}

export function summarizeTool(tool: Tool): ToolSummary {
  return {
    name: tool.name,
    description: tool.description,
    schemaSha256: createHash("sha256").update(JSON.stringify(tool.definition.inputSchema ?? null)).digest("hex"),
    ...(tool.extension ? { extension: tool.extension } : {}),
    ...(tool.permission ? { permission: tool.permission } : {}),
    concurrent: tool.concurrent === true,
    ...(tool.replayPolicy ? { replayPolicy: tool.replayPolicy } : {}),
    ...(tool.timeoutSeconds !== undefined ? { timeoutSeconds: tool.timeoutSeconds } : {}),
    attempts: tool.retry?.attempts ?? 1,
  };
}

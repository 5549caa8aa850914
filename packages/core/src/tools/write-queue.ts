import { resolve, sep } from "node:path";
import { toError } from "../errors.js";
import type { ToolCall } from "../types/content.js";
import type { ToolRun } from "./executor.js";
import type { Tool } from "./tool.js";

interface Holder {
  paths: readonly string[];
  done: Promise<void>;
}

/** Two paths overlap when they are the same, or one is a folder holding the other. */
function overlaps(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => x === y || x.startsWith(y + sep) || y.startsWith(x + sep)));
}

/**
 * The agent's one queue of file writes: a call of a tool that declares the paths it writes
 * (`writes`) waits for every earlier call, still queued or running, whose paths overlap its own,
 * whichever extension registered either tool; calls on disjoint paths run together. Waiting only
 * on earlier calls keeps it free of deadlock. Paths are resolved against the working directory.
 */
export class WriteQueue {
  private readonly holders: Holder[] = [];

  async run(tool: Tool, call: ToolCall, work: () => Promise<ToolRun>): Promise<ToolRun> {
    if (tool.writes === undefined) return work();
    let paths: readonly string[];
    try {
      const declared = typeof tool.writes === "function" ? tool.writes(call.input) : tool.writes;
      if (!Array.isArray(declared) || declared.some((p) => typeof p !== "string" || p === ""))
        throw new Error("writes must give an array of non-empty paths");
      paths = declared.map((p) => resolve(p));
    } catch (err) {
      const error = toError(err);
      return {
        rawResult: error,
        outcome: "failed",
        result: {
          toolCallId: call.id,
          name: call.name,
          content: `Error: tool "${tool.name}" could not say which paths it writes: ${error.message}`,
          isError: true,
        },
      };
    }
    const earlier = this.holders.filter((h) => overlaps(h.paths, paths)).map((h) => h.done);
    let release!: () => void;
    const holder: Holder = { paths, done: new Promise<void>((r) => (release = r)) };
    this.holders.push(holder);
    try {
      await Promise.all(earlier);
      return await work();
    } finally {
      this.holders.splice(this.holders.indexOf(holder), 1);
      release();
    }
  }
}

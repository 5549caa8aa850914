import type { RunTree as RunTreeType } from "langsmith";

/**
 * The tool runs open in this process, by the harnessx span id of their `execute_tool` span. A
 * subagent's run (`agent.asTool`) starts inside its parent's tool call, and its agent has its
 * own LangSmith extension: through this list its chain run is made a child of that tool run
 * (parent run id, trace and dotted order), so LangSmith shows it nested.
 */
const open = new Map<string, RunTreeType>();

/** Lists a tool run while it is open; returns the function that takes it off. */
export function listToolRun(spanId: string | undefined, tree: RunTreeType): () => void {
  if (!spanId) return () => {};
  open.set(spanId, tree);
  return () => {
    if (open.get(spanId) === tree) open.delete(spanId);
  };
}

/** The open tool run a run span hangs under (its parent span), if that tool call is traced to LangSmith here. */
export function toolRunOf(parentSpanId: string | undefined): RunTreeType | undefined {
  return parentSpanId ? open.get(parentSpanId) : undefined;
}

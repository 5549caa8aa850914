import type { AgentsSdkSpan } from "./sdk-types.js";

/** One SDK span of a trace, with its children in the order they started. */
export interface SpanNode {
  /** The span as it started, then a copy of it as it ended: the SDK goes on changing some span data after (an agent's tools). */
  span: AgentsSdkSpan;
  /** For a model call span: the tools its agent offered when the call ended. */
  offered?: readonly string[];
  readonly parent: SpanNode | undefined;
  readonly children: SpanNode[];
  ended: boolean;
  /** True once the span and everything under it were reported: the walk skips it. */
  done: boolean;
}

/** The spans of one trace as a tree, built as the SDK starts and ends them. */
export class SpanTree {
  private readonly nodes = new Map<string, SpanNode>();
  /** Spans with no parent span (the runner's task spans, or agent spans when task spans are off). */
  readonly roots: SpanNode[] = [];

  /** Adds a span at its start, under its parent when the parent is known. */
  start(span: AgentsSdkSpan): SpanNode {
    const parent = span.parentId === null ? undefined : this.nodes.get(span.parentId);
    const node: SpanNode = { span, parent, children: [], ended: false, done: false };
    this.nodes.set(span.spanId, node);
    (parent ? parent.children : this.roots).push(node);
    return node;
  }

  /** Marks a span ended, keeping a copy of it as it is now (a span never seen starting is added first). */
  end(span: AgentsSdkSpan): SpanNode {
    const node = this.nodes.get(span.spanId) ?? this.start(span);
    node.span = {
      spanId: span.spanId,
      traceId: span.traceId,
      parentId: span.parentId,
      spanData: { ...span.spanData },
      startedAt: span.startedAt,
      endedAt: span.endedAt,
      error: span.error,
    };
    node.ended = true;
    if (isModelSpan(node)) {
      const tools = ancestorOf(node, "agent")?.span.spanData as { tools?: unknown } | undefined;
      node.offered = Array.isArray(tools?.tools) ? tools.tools.filter((t): t is string => typeof t === "string") : [];
    }
    return node;
  }

  /**
   * The span a node's run hangs from: its outermost `task` span (one `run()` of the runner; a
   * run inside a tool is part of the tool's run), or undefined when the trace has no task spans,
   * and the whole trace is one run.
   */
  runRootOf(node: SpanNode): SpanNode | undefined {
    let root: SpanNode | undefined;
    for (let at: SpanNode | undefined = node; at; at = at.parent) if (at.span.spanData.type === "task") root = at;
    return root;
  }
}

/** The span data type of a node. */
export const typeOf = (node: SpanNode): string => node.span.spanData.type;

/** Model call spans: `generation` (chat models, custom models) and `response` (the Responses API model). */
export const isModelSpan = (node: SpanNode): boolean => typeOf(node) === "generation" || typeOf(node) === "response";

/** The first node under `node` (depth first, in start order) that `match` accepts. */
export function findUnder(
  node: { children: readonly SpanNode[] },
  match: (n: SpanNode) => boolean,
): SpanNode | undefined {
  for (const child of node.children) {
    if (match(child)) return child;
    const found = findUnder(child, match);
    if (found) return found;
  }
  return undefined;
}

/** The nearest ancestor of `node` of a span type. */
export function ancestorOf(node: SpanNode, type: string): SpanNode | undefined {
  for (let at = node.parent; at; at = at.parent) if (typeOf(at) === type) return at;
  return undefined;
}

import { deepFreeze } from "../util/deep-freeze.js";
import { AsyncLocalStorage } from "node:async_hooks";
import type { SpanIdSource, SpanIds, SpanStart } from "./id-source.js";
import { isSpanId, isTraceId, newSpanId, newTraceId, type SpanContext, type SpanRole } from "./span-context.js";
import { spanName } from "./span-names.js";

/** The run and span the code running now belongs to. */
export interface SpanScope {
  /** Id of the run (`run_...`). */
  runId: string;
  /** The innermost open span: a model or tool call's inside the run, else the run's own. */
  span: SpanContext;
}

// One store for the process: a run started inside another agent's tool call nests under it.
const storage = new AsyncLocalStorage<SpanScope>();

/** The scope of the code running now (across awaits, timers and concurrent tool calls), if any. */
export function currentScope(): SpanScope | undefined {
  return storage.getStore();
}

/** Runs `work` with `scope` as the current scope (through its awaits and timers) and returns what it returns. */
export function inScope<T>(scope: SpanScope, work: () => T): T {
  return storage.run(scope, work);
}

/** Opens the spans of one agent's runs: ids from its id source when it has one, else generated. */
export class SpanScopes {
  private source: SpanIdSource | undefined;

  /** Installs the id source; returns a function that removes it. */
  use(source: SpanIdSource): () => void {
    if (this.source)
      throw new Error("this agent already has a span id source; only one extension may provide span ids");
    this.source = source;
    return () => {
      if (this.source === source) this.source = undefined;
    };
  }

  /**
   * A new span under the current scope's span (a run's parent is whatever span is active where it
   * starts). The id source's ids are taken only when well-formed, in the parent's trace and not
   * the parent's own; a source that throws or answers nonsense leaves core to generate them.
   */
  open(role: SpanRole, subject: string, runId: string): SpanContext {
    const parent = currentScope()?.span;
    // Without a source nothing is asked: no name or start object is built on the engine's path.
    const given = this.source
      ? this.ask(this.source, { role, name: spanName(role, subject), runId, parent, time: Date.now() })
      : undefined;
    if (given) {
      // A run that starts under no harnessx span may still sit under the source's own (an HTTP request's).
      const parentSpanId = parent?.spanId ?? (isSpanId(given.parentSpanId) ? given.parentSpanId : undefined);
      return spanContext(given.traceId, given.spanId, role, parentSpanId);
    }
    return spanContext(parent?.traceId ?? newTraceId(), newSpanId(), role, parent?.spanId);
  }

  private ask(source: SpanIdSource, start: SpanStart): SpanIds | undefined {
    let given: SpanIds | undefined;
    try {
      given = source.open(start);
    } catch {
      return undefined;
    }
    if (!given || !isTraceId(given.traceId) || !isSpanId(given.spanId)) return undefined;
    const { parent } = start;
    if (parent && (given.traceId !== parent.traceId || given.spanId === parent.spanId)) return undefined;
    return given;
  }
}

/**
 * A span context without an absent parent key; two literals rather than a spread, as every span
 * opens here. Frozen: id sources, observers and the span's own scope share it, and none may change it.
 */
function spanContext(traceId: string, spanId: string, role: SpanRole, parentSpanId: string | undefined): SpanContext {
  return deepFreeze(parentSpanId ? { traceId, spanId, role, parentSpanId } : { traceId, spanId, role });
}

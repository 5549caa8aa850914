import { toError } from "../errors.js";
import { registration, type Registration } from "../registration.js";
import type { AgentInfo } from "../engine/agent-info.js";
import { currentScope } from "../spans/scopes.js";
import { deepFreeze } from "../util/deep-freeze.js";
import { readOnlySnapshotOf } from "../util/read-only.js";
import { HookEvent } from "./events.js";
import type { AnyHookContext, HookCallback, HookContext, HookPayloads } from "./payloads.js";

type ReadOnlyOf = (value: unknown) => { value: unknown; shareable: boolean };
type ContextFor = (observer: number) => HookContext;

const frozenInPlace: ReadOnlyOf = (value) => ({ value: deepFreeze(value), shareable: true });

interface Observer {
  fn: (ctx: HookContext) => void | Promise<void>;
  /** The extension that registered it; named in the ERROR event when it fails. */
  owner: string | undefined;
}

/**
 * Observers of lifecycle events. They run in registration order and are
 * awaited; one that throws never changes the run: its failure is emitted as an
 * `ERROR` event with `source: "hook"`, the event and the owning extension (a failing
 * `ERROR` observer is not re-reported). Each event's context and payload are read-only (a frozen
 * snapshot, or the caller's own payload frozen in place): observers read, and a write throws,
 * which is reported the same way.
 */
export class HookBus {
  // Lists are replaced, never mutated, so an emit in progress is unaffected by (un)registration.
  private readonly observers = new Map<HookEvent, Observer[]>();
  private anyObservers: Observer[] = [];

  constructor(private readonly info: AgentInfo) {}

  /**
   * Observes one event.
   * @param owner - The extension registering it, named in the `ERROR` event if the observer throws.
   * @returns A registration whose `close()` removes the observer (also usable with `using`).
   */
  on<E extends HookEvent>(event: E, callback: HookCallback<E>, owner?: string): Registration {
    const list = this.observers.get(event) ?? [];
    const observer: Observer = { fn: callback as unknown as Observer["fn"], owner };
    this.observers.set(event, [...list, observer]);
    return registration(() => {
      const current = this.observers.get(event) ?? [];
      this.observers.set(
        event,
        current.filter((o) => o !== observer),
      );
    });
  }

  /** Observes every event (recorders, tracers). */
  onAny(callback: (ctx: AnyHookContext) => void | Promise<void>, owner?: string): Registration {
    const observer: Observer = { fn: callback as unknown as Observer["fn"], owner };
    this.anyObservers = [...this.anyObservers, observer];
    return registration(() => {
      this.anyObservers = this.anyObservers.filter((o) => o !== observer);
    });
  }

  /** Runs just before a tool's handler (`TOOL_CALL_START`). */
  beforeTool(callback: HookCallback<typeof HookEvent.TOOL_CALL_START>): Registration {
    return this.on(HookEvent.TOOL_CALL_START, callback);
  }

  /** Runs after a tool call ended, whatever the outcome (`TOOL_CALL_END`). */
  afterTool(callback: HookCallback<typeof HookEvent.TOOL_CALL_END>): Registration {
    return this.on(HookEvent.TOOL_CALL_END, callback);
  }

  /** Observes `ERROR` events (failures of the run, observers, extensions, exporters...). */
  onError(callback: HookCallback<typeof HookEvent.ERROR>): Registration {
    return this.on(HookEvent.ERROR, callback);
  }

  /** True when some observer would receive `event` (one of its own or one of every event). */
  hasObservers(event: HookEvent): boolean {
    return this.anyObservers.length > 0 || (this.observers.get(event)?.length ?? 0) > 0;
  }

  /**
   * Delivers an event. Returns undefined when every observer finished
   * synchronously, so the hot path allocates no promise. Observers get a frozen snapshot of
   * `data` (`readOnlySnapshot`): the caller's objects are never touched.
   * @param timestamp - When it happened (ms since the epoch); default now. A run another
   * framework made (`RunHost`) may be reported after the fact.
   */
  emit<E extends HookEvent>(event: E, data: HookPayloads[E], timestamp?: number): Promise<void> | undefined {
    return this.deliver(event, data, readOnlySnapshotOf, timestamp);
  }

  /**
   * Delivers an event whose payload the caller built for this event and never changes again: it
   * is frozen in place with the plain data below it (`deepFreeze`), at no copy. The engine's own
   * hot events take this path; a value someone else made must be frozen or snapshotted by the
   * caller first, and a class instance in the payload (an Error) is not frozen: use `emit` then.
   */
  emitFrozen<E extends HookEvent>(event: E, data: HookPayloads[E]): Promise<void> | undefined {
    return this.deliver(event, data, frozenInPlace);
  }

  private deliver<E extends HookEvent>(
    event: E,
    data: HookPayloads[E],
    readOnly: ReadOnlyOf,
    timestamp?: number,
  ): Promise<void> | undefined {
    const specific = this.observers.get(event);
    const any = this.anyObservers;
    if ((specific === undefined || specific.length === 0) && any.length === 0) return undefined;
    // The run and span come from where the event is emitted: concurrent tool calls and nested
    // agents each see their own. Observers read: none can change the request about to be sent,
    // the call about to run or what the next observer sees (span contexts are frozen when made).
    const scope = currentScope();
    const at = timestamp ?? Date.now();
    const contextOf = (view: HookPayloads[HookEvent]): HookContext =>
      Object.freeze({ event, info: this.info, data: view, timestamp: at, runId: scope?.runId, span: scope?.span });
    const first = readOnly(data);
    const shared = contextOf(first.value as HookPayloads[HookEvent]);
    // A snapshot holding copies that cannot be frozen (a Date, a Map) is taken again for each observer.
    const contextFor: ContextFor = first.shareable
      ? () => shared
      : (i) => (i === 0 ? shared : contextOf(readOnly(data).value as HookPayloads[HookEvent]));
    const all =
      specific === undefined || specific.length === 0 ? any : any.length === 0 ? specific : [...any, ...specific];
    for (let i = 0; i < all.length; i++) {
      let outcome: void | Promise<void>;
      try {
        outcome = all[i].fn(contextFor(i));
      } catch (err) {
        const report = this.reportFailure(event, err, all[i].owner);
        if (report) return report.then(() => this.continueFrom(all, i + 1, event, contextFor));
        continue;
      }
      if (outcome !== undefined && typeof (outcome as Promise<void>).then === "function") {
        return this.settle(outcome as Promise<void>, event, all[i].owner).then(() =>
          this.continueFrom(all, i + 1, event, contextFor),
        );
      }
    }
    return undefined;
  }

  private async continueFrom(all: Observer[], start: number, event: HookEvent, contextFor: ContextFor): Promise<void> {
    for (let i = start; i < all.length; i++) {
      try {
        await all[i].fn(contextFor(i));
      } catch (err) {
        await this.reportFailure(event, err, all[i].owner);
      }
    }
  }

  private async settle(outcome: Promise<void>, event: HookEvent, owner: string | undefined): Promise<void> {
    try {
      await outcome;
    } catch (err) {
      await this.reportFailure(event, err, owner);
    }
  }

  private reportFailure(event: HookEvent, err: unknown, owner: string | undefined): Promise<void> | undefined {
    if (event === HookEvent.ERROR) return undefined;
    return this.emit(HookEvent.ERROR, {
      source: "hook",
      error: toError(err),
      event,
      ...(owner ? { extension: owner } : {}),
    });
  }
}

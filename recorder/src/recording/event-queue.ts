import type { AnyHookContext } from "@harnessx/core/extension";
import { MessageLog, trimRequest, type QueuedEvent } from "./message-log.js";

/** Events of a run the full queue dropped: how many, and over what time. */
export interface DropGap {
  count: number;
  fromTs: number;
  toTs: number;
}

/**
 * The agent's side of the recorder: observed events wait here, as objects, until the writer
 * takes them. No I/O and no serialization; a full queue drops events and counts them per run.
 */
export class EventQueue {
  private events: QueuedEvent[] = [];
  /** Per run: which request messages are already queued (see `trimRequest`). */
  private readonly messageLogs = new Map<string, MessageLog>();
  private readonly gaps = new Map<string, DropGap>();

  constructor(private readonly capacity: number) {}

  get length(): number {
    return this.events.length;
  }

  /** Queues an event of `runId`; false when the queue was full and the event was dropped. */
  offer(event: AnyHookContext, runId: string): boolean {
    // Run boundaries are never dropped: without them the rest of the run has nowhere to go.
    if (this.events.length >= this.capacity && event.event !== "agent_start" && event.event !== "agent_end") {
      const gap = this.gaps.get(runId);
      if (gap) {
        gap.count++;
        gap.toTs = event.timestamp;
      } else this.gaps.set(runId, { count: 1, fromTs: event.timestamp, toTs: event.timestamp });
      return false;
    }
    if (event.event === "llm_request") {
      let log = this.messageLogs.get(runId);
      if (!log) this.messageLogs.set(runId, (log = new MessageLog()));
      this.events.push(trimRequest(event, log));
    } else this.events.push(event);
    if (event.event === "agent_end") this.messageLogs.delete(runId);
    return true;
  }

  /** Takes every queued event, oldest first. */
  take(): QueuedEvent[] {
    const taken = this.events;
    this.events = [];
    return taken;
  }

  /** The events `runId` lost since its last gap was taken, if any. */
  takeGap(runId: string): DropGap | undefined {
    const gap = this.gaps.get(runId);
    this.gaps.delete(runId);
    return gap;
  }
}

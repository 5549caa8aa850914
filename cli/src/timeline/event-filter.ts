import { choiceList } from "../option-values.js";
import { isFailureEvent, KNOWN_EVENT_KINDS, type RecordedEvent } from "@harnessx/recorder";
import { toolOf } from "./describe.js";
import { owningSpan } from "./nesting.js";

/** The filters `trace show` and `trace tail` share, as their commander options. */
export interface EventFilterOptions {
  kind?: unknown;
  tool?: unknown;
  errors?: unknown;
}

/**
 * Which events a timeline shows: `--kind` (checked against the kinds this version writes and
 * `seenKinds`, any a newer recorder wrote), `--tool` (the calls of a tool and every event inside
 * them) and `--errors`. Fed the events in order, so it also works on a run as it is written.
 */
export class EventFilter {
  private readonly kinds: Set<string> | undefined;
  private readonly tool: string | undefined;
  private readonly errors: boolean;
  private readonly toolSpans = new Set<string>();

  constructor(options: EventFilterOptions, seenKinds: Iterable<string> = []) {
    this.kinds =
      typeof options.kind === "string"
        ? choiceList("--kind", options.kind, [...new Set([...KNOWN_EVENT_KINDS, ...seenKinds])])
        : undefined;
    this.tool = typeof options.tool === "string" ? options.tool : undefined;
    this.errors = Boolean(options.errors);
  }

  keeps(event: RecordedEvent): boolean {
    // A tool call's span is known from its start, which comes before every event inside it.
    if (this.tool !== undefined && event.spanId && toolOf(event) === this.tool) this.toolSpans.add(event.spanId);
    if (this.kinds && !this.kinds.has(event.kind)) return false;
    if (this.tool !== undefined && !this.toolSpans.has(owningSpan(event) ?? "")) return false;
    if (this.errors && !isFailureEvent(event)) return false;
    return true;
  }
}

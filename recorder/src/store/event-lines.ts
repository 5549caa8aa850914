import type { RecordedEvent } from "../format/event.js";
import { checkEventLine } from "../format/read-limits.js";
import { checkReadMemory } from "../format/read-memory.js";
import { EVENT_SCHEMA, parseChecked } from "../format/validate.js";

/** A line that is not an event: not JSON, or JSON of another shape (`[1,2]`, `{}`). */
export interface BadLine {
  /** 1-based line number within the text read. */
  line: number;
  /** Why it is not an event: the JSON parse error, or the first field that breaks the event schema. */
  problem: string;
}

/** What `parseEventLines` found in NDJSON bytes. */
export interface ParsedLines {
  /** The lines that are events, in order. */
  events: RecordedEvent[];
  /** How many non-empty lines were not events. */
  badLines: number;
  /** The first of them, to name it in a message. */
  firstBad?: BadLine;
}

/**
 * Parses NDJSON event lines one line at a time (never the whole text as one string: a huge
 * member must not hit the engine's string limit) and checks each against the event schema; a
 * line over `MAX_EVENT_LINE_BYTES` is an `EventLineTooLongError`.
 */
export function parseEventLines(bytes: Buffer): ParsedLines {
  const events: RecordedEvent[] = [];
  let badLines = 0;
  let firstBad: BadLine | undefined;
  for (const parsed of eventLines(bytes)) {
    if ("kind" in parsed) events.push(parsed);
    else {
      badLines++;
      firstBad ??= parsed;
    }
  }
  return { events, badLines, ...(firstBad ? { firstBad } : {}) };
}

/** Which events to read without their inline payload: all of them (`true`), or those a test picks from the rest of the event. */
export type SkipPayloads = boolean | ((event: RecordedEvent) => boolean);

/** Bytes of lines parsed between two looks at the heap (`checkReadMemory`, a microsecond). */
const MEMORY_CHECK_BYTES = 256 * 1024;

/** How the recorder ends a line that has an inline payload: the key, then the payload, then the line's closing brace. */
const PAYLOAD_KEY = Buffer.from(',"payload":');

/**
 * The events of NDJSON bytes one line at a time, as they are parsed (a reader that stops early
 * parses no more), each line that is not an event as a `BadLine`.
 *
 * With `skip`, a line's inline payload is left undecoded when the test says so: the recorder
 * writes the payload last, so the line up to its first `,"payload":` plus `}` is the event
 * without it. A cut that falls inside the attributes (an attribute named `payload`) leaves an
 * unbalanced object that does not parse, and a line that does not validate that way is parsed
 * whole, so a skipped read never yields what a whole read would not, payload aside.
 *
 * A line longer than `MAX_EVENT_LINE_BYTES`, or holding more than `MAX_EVENT_LINE_VALUES`, is not
 * decoded: `EventLineTooLongError` is thrown when the reader reaches it (the recorder never writes
 * one; decoding it could take gigabytes).
 */
export function* eventLines(bytes: Buffer, skip: SkipPayloads = false): Generator<RecordedEvent | BadLine> {
  let nextPayload = skip ? bytes.indexOf(PAYLOAD_KEY) : -1;
  let sinceCheck = 0;
  for (const [start, end, line] of eventLineRanges(bytes)) {
    // The heap is looked at every few hundred kilobytes parsed: a bounded reader, whatever the lines hold.
    sinceCheck += end - start;
    if (sinceCheck > MEMORY_CHECK_BYTES) {
      sinceCheck = 0;
      checkReadMemory();
    }
    if (nextPayload !== -1 && nextPayload < start) nextPayload = bytes.indexOf(PAYLOAD_KEY, start);
    if (nextPayload !== -1 && nextPayload < end) {
      const head = parseChecked<RecordedEvent>(`${bytes.toString("utf8", start, nextPayload)}}`, EVENT_SCHEMA);
      if ("value" in head && skipsPayload(skip, head.value)) {
        yield head.value;
        continue;
      }
    }
    const parsed = parseChecked<RecordedEvent>(bytes.toString("utf8", start, end), EVENT_SCHEMA);
    if (!("value" in parsed)) yield { line, problem: parsed.problem };
    else if (parsed.value.payload === undefined || !skip) yield parsed.value;
    else {
      // Decoded whole (the cut fell inside the attributes): the payload still goes where it would have been skipped.
      const { payload, ...event } = parsed.value;
      yield skipsPayload(skip, event) ? event : { ...event, payload };
    }
  }
}

/** True when `skip` says to leave this event's payload out (`event` given without it). */
export function skipsPayload(skip: SkipPayloads, event: RecordedEvent): boolean {
  return skip === true || (typeof skip === "function" && skip(withoutPayload(event)));
}

/** The event without its inline payload. */
export function withoutPayload(event: RecordedEvent): RecordedEvent {
  if (event.payload === undefined) return event;
  const { payload: _payload, ...rest } = event;
  return rest;
}

/** Calls `visit` with the byte range and 1-based number of each non-empty line (a last line without newline included). */
export function forEachLine(bytes: Buffer, visit: (start: number, end: number, line: number) => void): void {
  for (const [start, end, line] of lineRanges(bytes)) visit(start, end, line);
}

/** `lineRanges` of event lines: a line over `MAX_EVENT_LINE_BYTES`, or too dense (`checkEventLine`), throws `EventLineTooLongError` when reached, before anything decodes it. */
export function* eventLineRanges(bytes: Buffer): Generator<[number, number, number]> {
  for (const range of lineRanges(bytes)) {
    checkEventLine(bytes, range[0], range[1], range[2]);
    yield range;
  }
}

/** The byte range and 1-based number of each non-empty line, in order. */
export function* lineRanges(bytes: Buffer): Generator<[number, number, number]> {
  let line = 0;
  for (let start = 0; start < bytes.byteLength; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.byteLength : newline;
    line++;
    if (end > start) yield [start, end, line];
    start = end + 1;
  }
}

import type { RecordedEvent } from "../format/event.js";
import { EVENT_SCHEMA, parseChecked } from "../format/validate.js";

/** A line that is not an event: not JSON, or JSON of another shape (`[1,2]`, `{}`). */
export interface BadLine {
  /** 1-based line number within the text read. */
  line: number;
  problem: string;
}

export interface ParsedLines {
  events: RecordedEvent[];
  /** How many non-empty lines were not events. */
  badLines: number;
  /** The first of them, to name it in a message. */
  firstBad?: BadLine;
}

/**
 * Parses NDJSON event lines one line at a time (never the whole text as one string: a huge
 * member must not hit the engine's string limit) and checks each against the event schema.
 */
export function parseEventLines(bytes: Buffer): ParsedLines {
  const events: RecordedEvent[] = [];
  let badLines = 0;
  let firstBad: BadLine | undefined;
  forEachLine(bytes, (start, end, line) => {
    const parsed = parseChecked<RecordedEvent>(bytes.toString("utf8", start, end), EVENT_SCHEMA);
    if ("value" in parsed) events.push(parsed.value);
    else {
      badLines++;
      firstBad ??= { line, problem: parsed.problem };
    }
  });
  return { events, badLines, ...(firstBad ? { firstBad } : {}) };
}

/** Calls `visit` with the byte range and 1-based number of each non-empty line (a last line without newline included). */
export function forEachLine(bytes: Buffer, visit: (start: number, end: number, line: number) => void): void {
  let line = 0;
  for (let start = 0; start < bytes.byteLength; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.byteLength : newline;
    line++;
    if (end > start) visit(start, end, line);
    start = end + 1;
  }
}
